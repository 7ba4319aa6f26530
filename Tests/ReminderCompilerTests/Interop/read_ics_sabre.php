<?php
// Prints "UID<TAB>seconds" for each VEVENT's DTSTART of the .ics named first, as
// sabre/vobject reads it: the parser of SabreDAV, and so of Baikal and Nextcloud
// (Debian's php-sabre-vobject). It finds a zone by its TZID's name, or by the
// VTIMEZONE's X-LIC-LOCATION, and falls back to UTC.
require_once 'Sabre/VObject/autoload.php';

use Sabre\VObject\Reader;

$calendar = Reader::read(file_get_contents($argv[1]));
foreach ($calendar->select('VEVENT') as $event) {
    echo (string)$event->UID, "\t", $event->DTSTART->getDateTime()->getTimestamp(), "\n";
}
