/*
 * The floor for writing W2's plan JSON: the same bytes remindc writes, from the values of
 * the notifications, with no planning and no allocation but three buffers. Texts are
 * checked for escapes as they are read, so writing one is a copy.
 *
 *     plan_json_floor VALUES OUT               write the plan JSON to OUT
 *     plan_json_floor VALUES OUT fingerprints  the same, each fingerprint hashed from the
 *                                              notification's fields, as remindc must,
 *                                              and checked against the value read
 *     plan_json_floor VALUES -                 only read VALUES (its cost is subtracted)
 *
 * VALUES comes from `remindc-benchmark --write-values` (its format is described there).
 * Tests/Performance/instruction_counts.py --floor compiles this with `cc -O2`, checks that
 * OUT equals remindc's plan byte for byte, and counts the instructions of writing it.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *text;
    size_t length;
} Text;

typedef struct {
    Text id, kind, reminders, group, title, body, level;
    int64_t fire_seconds, offset_seconds, slot_day, slot_minute, numeric_id, sequence;
    uint64_t fingerprint;
} Notification;

static void fail(const char *why) {
    fprintf(stderr, "plan_json_floor: %s\n", why);
    exit(1);
}

/* The next field of a tab-separated line, from *cursor up to a tab or a line break. */
static Text field(char **cursor) {
    Text result = {*cursor, 0};
    char *end = *cursor;
    while (*end != '\t' && *end != '\n' && *end != '\0') end++;
    result.length = (size_t)(end - *cursor);
    *cursor = *end == '\0' ? end : end + 1;
    return result;
}

static int64_t number(char **cursor) {
    Text text = field(cursor);
    int64_t value = 0, sign = 1;
    size_t index = 0;
    if (text.length > 0 && text.text[0] == '-') { sign = -1; index = 1; }
    for (; index < text.length; index++) value = value * 10 + (text.text[index] - '0');
    return sign * value;
}

static uint64_t unsigned_number(char **cursor) {
    Text text = field(cursor);
    uint64_t value = 0;
    for (size_t index = 0; index < text.length; index++) value = value * 10 + (uint64_t)(text.text[index] - '0');
    return value;
}

/* A count after a label ("HEADER 123\n"); the cursor moves past the line. */
static size_t labelled(char **cursor, const char *label) {
    size_t length = strlen(label);
    if (strncmp(*cursor, label, length) != 0) fail("unexpected values file");
    *cursor += length;
    return (size_t)unsigned_number(cursor);
}

static char *out;

static void put(const char *text, size_t length) {
    memcpy(out, text, length);
    out += length;
}

#define PUT(literal) put(literal, sizeof(literal) - 1)

static void put_digits(int64_t value, int width) {
    char digits[24];
    int count = 0;
    uint64_t rest = value < 0 ? (uint64_t)(-value) : (uint64_t)value;
    if (value < 0) *out++ = '-';
    do {
        digits[count++] = (char)('0' + rest % 10);
        rest /= 10;
    } while (rest > 0);
    while (count < width) digits[count++] = '0';
    while (count > 0) *out++ = digits[--count];
}

/* A JSON string whose text needs no escape (`needs_no_escape` said so when it was read):
 * remindc too escapes a reminder's texts once, not once per notification. */
static void put_string(Text text) {
    *out++ = '"';
    memcpy(out, text.text, text.length);
    out += text.length;
    *out++ = '"';
}

static Text needs_no_escape(Text text) {
    for (size_t index = 0; index < text.length; index++) {
        unsigned char byte = (unsigned char)text.text[index];
        if (byte == '"' || byte == '\\' || byte < 0x20) fail("a text needs an escape, which this floor does not write");
    }
    return text;
}

/* The civil date of a day number (days since 1970-01-01), in the proleptic Gregorian
 * calendar: eras of 400 years, years that start on 1 March. */
static void civil(int64_t day_number, int64_t *year, int64_t *month, int64_t *day) {
    int64_t shifted = day_number + 719468;
    int64_t era = (shifted >= 0 ? shifted : shifted - 146096) / 146097;
    int64_t day_of_era = shifted - era * 146097;
    int64_t year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36524 - day_of_era / 146096) / 365;
    int64_t day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    int64_t month_from_march = (5 * day_of_year + 2) / 153;
    *day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    *month = month_from_march < 10 ? month_from_march + 3 : month_from_march - 9;
    *year = year_of_era + era * 400 + (*month <= 2);
}

/* `YYYY-MM-DDTHH:MM`. The date's text is kept for the next call: notifications in a row
 * mostly fall on the same day, and remindc remembers its dates the same way. */
static void put_local(int64_t day_number, int64_t minute_of_day) {
    static int64_t last_day = INT64_MIN;
    static char date[11];
    if (day_number != last_day) {
        int64_t year, month, day;
        civil(day_number, &year, &month, &day);
        char *saved = out;
        out = date;
        put_digits(year, 4);
        *out++ = '-';
        put_digits(month, 2);
        *out++ = '-';
        put_digits(day, 2);
        *out++ = 'T';
        out = saved;
        last_day = day_number;
    }
    memcpy(out, date, 11);
    out += 11;
    put_digits(minute_of_day / 60, 2);
    *out++ = ':';
    put_digits(minute_of_day % 60, 2);
}

static void put_instant(int64_t seconds, int64_t offset) {
    int64_t local = seconds + offset;
    int64_t day_number = (local >= 0 ? local : local - 86399) / 86400;
    int64_t second_of_day = local - day_number * 86400;
    put_local(day_number, second_of_day / 60);
    *out++ = ':';
    put_digits(second_of_day % 60, 2);
    int64_t magnitude = offset < 0 ? -offset : offset;
    *out++ = offset < 0 ? '-' : '+';
    put_digits(magnitude / 3600, 2);
    *out++ = ':';
    put_digits(magnitude / 60 % 60, 2);
}

/* The plan format's fingerprint (PlanFormat, "fingerprint"): 64-bit FNV-1a over the ID,
 * `fireAt` in seconds as decimal text, then title, body, category, interruptionLevel,
 * sound and threadID; a present field is a 1 byte, its length in 8 bytes (least
 * significant first) and its bytes, an absent one a 0 byte. W2's notifications have no
 * category, sound, threadID or userInfo (the values file holds none). */
#define FNV_PRIME 0x100000001b3ULL
/* The prime to the eighth power: a length under 256 is its low byte and seven 0 bytes,
 * and x ^ 0 == x, so hashing it is one xor and this product. */
#define FNV_PRIME_TO_THE_EIGHTH 0x1efac7090aef4a21ULL

static uint64_t hash_byte(uint64_t hash, unsigned char byte) {
    return (hash ^ byte) * FNV_PRIME;
}

static uint64_t hash_field(uint64_t hash, const char *text, size_t length) {
    hash = hash_byte(hash, 1);
    if (length < 256) {
        hash = (hash ^ length) * FNV_PRIME_TO_THE_EIGHTH;
    } else {
        uint64_t rest = length;
        for (int index = 0; index < 8; index++, rest >>= 8) hash = hash_byte(hash, (unsigned char)(rest & 0xFF));
    }
    const unsigned char *byte = (const unsigned char *)text, *end = byte + length;
    /* Eight bytes a round: the multiplications are a chain either way, the loop's own
     * steps are not. */
    while (end - byte >= 8) {
        hash = hash_byte(hash, byte[0]);
        hash = hash_byte(hash, byte[1]);
        hash = hash_byte(hash, byte[2]);
        hash = hash_byte(hash, byte[3]);
        hash = hash_byte(hash, byte[4]);
        hash = hash_byte(hash, byte[5]);
        hash = hash_byte(hash, byte[6]);
        hash = hash_byte(hash, byte[7]);
        byte += 8;
    }
    while (byte < end) hash = hash_byte(hash, *byte++);
    return hash;
}

static uint64_t fingerprint_of(const Notification *n) {
    char digits[24];
    int count = 0;
    int64_t seconds = n->fire_seconds;
    uint64_t rest = seconds < 0 ? (uint64_t)0 - (uint64_t)seconds : (uint64_t)seconds;
    do {
        digits[sizeof digits - 1 - count++] = (char)('0' + rest % 10);
        rest /= 10;
    } while (rest > 0);
    if (seconds < 0) digits[sizeof digits - 1 - count++] = '-';
    uint64_t hash = 0xcbf29ce484222325ULL;
    hash = hash_field(hash, n->id.text, n->id.length);
    hash = hash_field(hash, digits + sizeof digits - count, (size_t)count);
    hash = hash_field(hash, n->title.text, n->title.length);
    hash = hash_field(hash, n->body.text, n->body.length);
    hash = hash_byte(hash, 0);
    hash = hash_field(hash, n->level.text, n->level.length);
    hash = hash_byte(hash, 0);
    return hash_byte(hash, 0);
}

int main(int argc, char **argv) {
    if (argc != 3 && !(argc == 4 && strcmp(argv[3], "fingerprints") == 0)) fail("usage: plan_json_floor VALUES OUT|- [fingerprints]");
    int hashes = argc == 4;
    FILE *input = fopen(argv[1], "rb");
    if (!input) fail("cannot open the values file");
    fseek(input, 0, SEEK_END);
    long size = ftell(input);
    fseek(input, 0, SEEK_SET);
    char *values = malloc((size_t)size + 1);
    if (!values || fread(values, 1, (size_t)size, input) != (size_t)size) fail("cannot read the values file");
    values[size] = '\0';
    fclose(input);

    char *cursor = values;
    size_t header_length = labelled(&cursor, "HEADER ");
    Text header = {cursor, header_length};
    cursor += header_length + 1;
    size_t footer_length = labelled(&cursor, "FOOTER ");
    Text footer = {cursor, footer_length};
    cursor += footer_length + 1;
    size_t count = labelled(&cursor, "NOTIFICATIONS ");
    Notification *notifications = malloc(count * sizeof(Notification));
    if (!notifications) fail("out of memory");
    for (size_t index = 0; index < count; index++) {
        Notification *notification = &notifications[index];
        notification->id = needs_no_escape(field(&cursor));
        notification->kind = needs_no_escape(field(&cursor));
        notification->fire_seconds = number(&cursor);
        notification->offset_seconds = number(&cursor);
        notification->slot_day = number(&cursor);
        notification->slot_minute = number(&cursor);
        notification->reminders = needs_no_escape(field(&cursor));
        notification->group = needs_no_escape(field(&cursor));
        notification->title = needs_no_escape(field(&cursor));
        notification->body = needs_no_escape(field(&cursor));
        notification->level = needs_no_escape(field(&cursor));
        notification->numeric_id = number(&cursor);
        notification->fingerprint = unsigned_number(&cursor);
        notification->sequence = number(&cursor);
    }
    if (strcmp(argv[2], "-") == 0) return 0;

    size_t capacity = header.length + footer.length + 64;
    for (size_t index = 0; index < count; index++) {
        Notification *n = &notifications[index];
        capacity += 400 + (n->id.length + n->reminders.length + n->group.length + n->title.length + n->body.length);
    }
    char *buffer = malloc(capacity);
    if (!buffer) fail("out of memory");
    out = buffer;
    put(header.text, header.length);
    static const char hex[] = "0123456789abcdef";
    for (size_t index = 0; index < count; index++) {
        Notification *n = &notifications[index];
        if (index > 0) PUT(",\n");
        PUT("    {\n      \"id\": ");
        put_string(n->id);
        PUT(",\n      \"kind\": ");
        put_string(n->kind);
        PUT(",\n      \"fireAt\": \"");
        put_instant(n->fire_seconds, n->offset_seconds);
        PUT("\",\n      \"slot\": \"");
        put_local(n->slot_day, n->slot_minute);
        PUT("\",\n      \"reminders\": [");
        const char *start = n->reminders.text, *end = start + n->reminders.length;
        while (start < end) {
            const char *comma = memchr(start, ',', (size_t)(end - start));
            const char *stop = comma ? comma : end;
            put_string((Text){start, (size_t)(stop - start)});
            if (comma) PUT(", ");
            start = stop + 1;
        }
        PUT("]");
        if (n->group.length > 0) {
            PUT(",\n      \"group\": ");
            put_string(n->group);
        }
        PUT(",\n      \"title\": ");
        put_string(n->title);
        PUT(",\n      \"body\": ");
        put_string(n->body);
        PUT(",\n      \"interruptionLevel\": ");
        put_string(n->level);
        PUT(",\n      \"numericId\": ");
        put_digits(n->numeric_id, 1);
        PUT(",\n      \"fingerprint\": \"");
        uint64_t fingerprint = n->fingerprint;
        if (hashes) {
            fingerprint = fingerprint_of(n);
            if (fingerprint != n->fingerprint) fail("a fingerprint hashed here differs from remindc's");
        }
        for (int shift = 60; shift >= 0; shift -= 4) *out++ = hex[(fingerprint >> shift) & 15];
        PUT("\",\n      \"sequence\": ");
        put_digits(n->sequence, 1);
        PUT("\n    }");
    }
    put(footer.text, footer.length);

    FILE *output = fopen(argv[2], "wb");
    if (!output || fwrite(buffer, 1, (size_t)(out - buffer), output) != (size_t)(out - buffer) || fclose(output) != 0) {
        fail("cannot write the plan");
    }
    return 0;
}
