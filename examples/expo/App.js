// App.js: an Expo app whose reminders are planned by `remindc serve`. It plans at launch,
// whenever it comes to the foreground, when a dose is logged and after every action on
// a notification; remindc.js does the work.
import AsyncStorage from '@react-native-async-storage/async-storage';
import * as Notifications from 'expo-notifications';
import { useEffect } from 'react';
import { AppState, Button, SafeAreaView, Text } from 'react-native';
import config from './reminders.config.json';
import { createReminders } from './remindc.js';

// Where remindc serve answers; a phone reaches the computer running it by its address.
const SERVICE_URL = 'http://192.168.1.20:8080';

const reminders = createReminders({
  serviceURL: SERVICE_URL,
  notifications: Notifications,
  storage: AsyncStorage,
  config,
  timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone,
});

Notifications.setNotificationHandler({
  handleNotification: async () => ({ shouldShowBanner: true, shouldShowList: true, shouldPlaySound: true, shouldSetBadge: false }),
});

// Each response once, whether it reaches the listener, the launch path or both.
const handled = new Set();
async function respond(response) {
  const key = `${response.notification.request.identifier} ${response.actionIdentifier} ${response.notification.date}`;
  if (handled.has(key)) return reminders.replan();
  handled.add(key);
  await reminders.onResponse(response);
  await Notifications.clearLastNotificationResponseAsync();
}

export default function App() {
  useEffect(() => {
    Notifications.requestPermissionsAsync().catch(console.warn);
    const responses = Notifications.addNotificationResponseReceivedListener((response) => {
      respond(response).catch(console.warn);
    });
    const foreground = AppState.addEventListener('change', (state) => {
      if (state === 'active') reminders.replan().catch(console.warn);
    });
    Notifications.getLastNotificationResponseAsync()
      .then((last) => (last !== null ? respond(last) : reminders.replan()))
      .catch(console.warn);
    return () => { responses.remove(); foreground.remove(); };
  }, []);

  return (
    <SafeAreaView>
      <Text accessibilityRole="header">Medication</Text>
      <Button title="Log levothyroxine" onPress={() => reminders.logActivity('thyroid').catch(console.warn)} />
      <Button title="Log vitamin D" onPress={() => reminders.logActivity('vitamin-d').catch(console.warn)} />
    </SafeAreaView>
  );
}
