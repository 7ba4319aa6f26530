/*
 * Expands every VEVENT of an .ics file with libical, as Evolution and KDE read calendars.
 *
 *     read_ics_libical FILE FROM TO
 *
 * FROM and TO are seconds since 1970 (UTC). Prints one line per instance starting in
 * [FROM, TO]: the UID, a tab, and the instance's start in seconds since 1970.
 */
#include <libical/ical.h>
#include <stdio.h>
#include <stdlib.h>

struct context {
    const char *uid;
    time_t from;
    time_t to;
};

static void print_instance(icalcomponent *event, struct icaltime_span *span, void *data) {
    (void)event;
    struct context *context = data;
    if (span->start >= context->from && span->start <= context->to) {
        printf("%s\t%lld\n", context->uid, (long long)span->start);
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: read_ics_libical FILE FROM TO\n");
        return 2;
    }
    FILE *file = fopen(argv[1], "rb");
    if (file == NULL) {
        perror(argv[1]);
        return 1;
    }
    fseek(file, 0, SEEK_END);
    long length = ftell(file);
    fseek(file, 0, SEEK_SET);
    char *text = malloc((size_t)length + 1);
    if (text == NULL || fread(text, 1, (size_t)length, file) != (size_t)length) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    text[length] = '\0';
    fclose(file);

    icalcomponent *calendar = icalparser_parse_string(text);
    if (calendar == NULL) {
        fprintf(stderr, "libical cannot parse %s\n", argv[1]);
        return 1;
    }
    time_t from = (time_t)atoll(argv[2]);
    time_t to = (time_t)atoll(argv[3]);
    struct icaltimetype start = icaltime_from_timet_with_zone(from, 0, icaltimezone_get_utc_timezone());
    struct icaltimetype end = icaltime_from_timet_with_zone(to + 1, 0, icaltimezone_get_utc_timezone());
    for (icalcomponent *event = icalcomponent_get_first_component(calendar, ICAL_VEVENT_COMPONENT); event != NULL;
         event = icalcomponent_get_next_component(calendar, ICAL_VEVENT_COMPONENT)) {
        struct context context = {icalcomponent_get_uid(event), from, to};
        icalcomponent_foreach_recurrence(event, start, end, print_instance, &context);
    }
    icalcomponent_free(calendar);
    free(text);
    return 0;
}
