#include "CXMLShim.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An element whose end tag has not come yet. */
typedef struct {
    /* Its entry on the tape. */
    uint32_t index;
    /* Where the entries after its last child element so far begin: those are its texts. */
    uint32_t texts_from;
    /* Whether a child element came already. */
    uint32_t has_element_child;
} rx_open_element;

/* The tape a parse writes: entries, the bytes their ranges point into, and the open
 * elements whose `end` is not known yet. */
struct rx_document {
    rx_event *events;
    size_t event_count;
    size_t event_capacity;
    unsigned char *text;
    size_t text_length;
    size_t text_capacity;
    rx_open_element *open;
    size_t open_count;
    size_t open_capacity;
    /* The last entry is a text or CDATA run that the next piece of the same kind extends
     * (libxml2 hands one run over in pieces); an element or a comment ends a run. */
    int run_open;
};

/* Per-parse state, reached from the SAX callbacks through ctxt->_private. */
typedef struct {
    const char *input;
    size_t length;
    int depth;
    int max_depth;
    long long values;
    long long max_values;
    rx_error *error;
    rx_document *document;
} rx_parse_state;

/* The external entity loader is process-wide in libxml2 2.9; ours refuses only while this
 * thread is inside rx_parse and defers to the previous loader otherwise, so that an app
 * embedding remindc keeps its own libxml2 behaviour. */
static __thread int rx_inside_parse = 0;
static xmlExternalEntityLoader rx_previous_loader = NULL;
static pthread_once_t rx_loader_once = PTHREAD_ONCE_INIT;

static xmlParserInputPtr rx_refusing_loader(const char *url, const char *id, xmlParserCtxtPtr ctxt) {
    if (rx_inside_parse) {
        return NULL;
    }
    return rx_previous_loader != NULL ? rx_previous_loader(url, id, ctxt) : NULL;
}

static void rx_install_loader(void) {
    rx_previous_loader = xmlGetExternalEntityLoader();
    xmlSetExternalEntityLoader(rx_refusing_loader);
}

static void rx_silent_structured(void *user, xmlErrorPtr error) {
    (void)user;
    (void)error;
}

static void rx_silent_generic(void *user, const char *message, ...) {
    (void)user;
    (void)message;
}

static rx_parse_state *rx_state(void *ctx) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    return (rx_parse_state *)ctxt->_private;
}

static long long rx_current_offset(xmlParserCtxtPtr ctxt) {
    xmlParserInputPtr input = ctxt->input;
    /* UTF-8 input declared as UTF-8 gets a UTF-8 "converter" that copies bytes as they
     * are, so the position in the parser's buffer is the position in the input. Asking
     * xmlByteConsumed instead would convert the whole rest of the buffer again on every
     * call, which made reading the config a tenth of a compile. */
    if (input != NULL && input->base != NULL && input->cur != NULL && input->buf != NULL
        && (input->buf->encoder == NULL
            || (input->buf->encoder->name != NULL
                && xmlStrcasecmp((const xmlChar *)input->buf->encoder->name, (const xmlChar *)"UTF-8") == 0))) {
        return (long long)input->consumed + (long long)(input->cur - input->base);
    }
    long consumed = xmlByteConsumed(ctxt);
    return consumed < 0 ? -1 : (long long)consumed;
}

/* The offset of the nearest `marker` at or before `from` in the original input: the start
 * of the construct the parser has just read. */
static long long rx_scan_back(const rx_parse_state *state, long long from, const char *marker) {
    size_t marker_length = strlen(marker);
    if (from < 0) {
        return -1;
    }
    if ((size_t)from > state->length) {
        from = (long long)state->length;
    }
    for (long long at = from; at >= 0; at--) {
        if ((size_t)at + marker_length <= state->length &&
            memcmp(state->input + at, marker, marker_length) == 0) {
            return at;
        }
    }
    return -1;
}

static void rx_refuse(xmlParserCtxtPtr ctxt, rx_error_kind kind, long long offset, const char *message) {
    rx_parse_state *state = (rx_parse_state *)ctxt->_private;
    if (state->error->kind == RX_ERROR_NONE) {
        state->error->kind = kind;
        state->error->offset = offset;
        snprintf(state->error->message, sizeof state->error->message, "%s", message);
    }
    xmlStopParser(ctxt);
}

/* Makes room for `more` items of `size` bytes in a growing array; 0 when memory ran out or
 * the array would pass what a 32-bit index reaches. */
static int rx_reserve(void **items, size_t *capacity, size_t count, size_t more, size_t size) {
    if (count + more <= *capacity) {
        return 1;
    }
    size_t wanted = *capacity < 64 ? 64 : *capacity;
    while (wanted < count + more) {
        wanted *= 2;
    }
    if (wanted > (size_t)UINT32_MAX || wanted > SIZE_MAX / size) {
        return 0;
    }
    void *grown = realloc(*items, wanted * size);
    if (grown == NULL) {
        return 0;
    }
    *items = grown;
    *capacity = wanted;
    return 1;
}

static void rx_out_of_memory(xmlParserCtxtPtr ctxt) {
    rx_refuse(ctxt, RX_ERROR_INTERNAL, -1, "out of memory while reading the document");
}

/* Appends `length` bytes to the text store; returns where they start, or -1. */
static long long rx_store_text(rx_document *document, const xmlChar *bytes, size_t length) {
    if (!rx_reserve((void **)&document->text, &document->text_capacity, document->text_length, length, 1)) {
        return -1;
    }
    size_t start = document->text_length;
    memcpy(document->text + start, bytes, length);
    document->text_length += length;
    return (long long)start;
}

/* Whitespace beside an element child means nothing to any reader of a plist (containers
 * skip it, text and booleans refuse the element), so it is dropped: in a list of `<true/>`
 * it would be every other entry. Drops the whitespace runs the innermost open element ends
 * with, when it has an element child; they are the last entries and bytes of the tape. */
static void rx_drop_blank_runs(rx_document *document) {
    if (document->open_count == 0) {
        return;
    }
    rx_open_element *element = &document->open[document->open_count - 1];
    while (element->has_element_child && document->event_count > element->texts_from) {
        rx_event *last = &document->events[document->event_count - 1];
        if (last->kind == RX_EVENT_ELEMENT || !last->flag) {
            break;
        }
        if ((size_t)last->text_start + last->text_length == document->text_length) {
            document->text_length = last->text_start;
        }
        document->event_count--;
    }
    document->run_open = 0;
}

static int rx_is_xml_whitespace(const xmlChar *bytes, size_t length) {
    for (size_t i = 0; i < length; i++) {
        xmlChar byte = bytes[i];
        if (byte != ' ' && byte != '\t' && byte != '\n' && byte != '\r') {
            return 0;
        }
    }
    return 1;
}

static void rx_start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                             const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                             int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    (void)namespaces;
    (void)nb_attributes;
    (void)nb_defaulted;
    (void)attributes;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_parse_state *state = rx_state(ctx);
    rx_document *document = state->document;
    /* When called, the parser stands on the tag's closing `>` or `/>`; attribute values
     * cannot hold a literal `<`, so the nearest `<` before it opens this tag. */
    long long offset = rx_scan_back(state, rx_current_offset(ctxt), "<");
    state->depth++;
    if (state->depth > state->max_depth) {
        char message[160];
        snprintf(message, sizeof message, "elements nest deeper than the limit of %d levels", state->max_depth);
        rx_refuse(ctxt, RX_ERROR_TOO_DEEP, offset, message);
        return;
    }
    /* Every element counts, keys too: a key anywhere but in a dict is read as a value, and
     * even those in a dict take room on the tape. Counting them bounds the tape and all that
     * is built from it, as the JSON reader bounds its values. */
    if (++state->values > state->max_values) {
        char message[160];
        snprintf(message, sizeof message, "more than %lld values", state->max_values);
        rx_refuse(ctxt, RX_ERROR_TOO_MANY_VALUES, offset, message);
        return;
    }
    /* An undeclared prefix is a namespace error that libxml2 lets pass; the name then keeps
     * its prefix, so that it is reported as written rather than read as a plist element. */
    size_t local_length = strlen((const char *)localname);
    size_t prefix_length = (prefix != NULL && uri == NULL) ? strlen((const char *)prefix) + 1 : 0;
    if (!rx_reserve((void **)&document->events, &document->event_capacity, document->event_count, 1, sizeof(rx_event))
        || !rx_reserve((void **)&document->open, &document->open_capacity, document->open_count, 1,
                       sizeof(rx_open_element))) {
        rx_out_of_memory(ctxt);
        return;
    }
    if (document->open_count > 0) {
        document->open[document->open_count - 1].has_element_child = 1;
        rx_drop_blank_runs(document);
    }
    long long name_start = (long long)document->text_length;
    if (prefix_length > 0
        && (rx_store_text(document, prefix, prefix_length - 1) < 0 || rx_store_text(document, (const xmlChar *)":", 1) < 0)) {
        rx_out_of_memory(ctxt);
        return;
    }
    if (rx_store_text(document, localname, local_length) < 0) {
        rx_out_of_memory(ctxt);
        return;
    }
    rx_event *event = &document->events[document->event_count];
    event->offset = offset < 0 ? 0 : (uint32_t)offset;
    event->text_start = (uint32_t)name_start;
    event->text_length = (uint32_t)(prefix_length + local_length);
    event->end = 0;
    event->kind = RX_EVENT_ELEMENT;
    /* A declared prefix comes with its namespace; an undeclared one stays in the name. */
    event->flag = (uri != NULL || nb_namespaces > 0) ? 1 : 0;
    rx_open_element opened = {(uint32_t)document->event_count, (uint32_t)document->event_count + 1, 0};
    document->open[document->open_count++] = opened;
    document->event_count++;
    document->run_open = 0;
}

static void rx_end_element(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    (void)localname;
    (void)prefix;
    (void)uri;
    rx_parse_state *state = rx_state(ctx);
    rx_document *document = state->document;
    state->depth--;
    if (document->open_count > 0) {
        rx_drop_blank_runs(document);
        document->open_count--;
        document->events[document->open[document->open_count].index].end = (uint32_t)document->event_count;
        if (document->open_count > 0) {
            document->open[document->open_count - 1].texts_from = (uint32_t)document->event_count;
        }
    }
    document->run_open = 0;
}

/* Text and CDATA pieces: a piece of the same kind as the run just before it extends it. */
static void rx_text_piece(void *ctx, const xmlChar *bytes, int length, uint8_t kind) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_document *document = rx_state(ctx)->document;
    /* Text outside the root element is only whitespace, which a tree would not hold. */
    if (document->open_count == 0 || length <= 0) {
        return;
    }
    int whitespace = rx_is_xml_whitespace(bytes, (size_t)length);
    if (document->run_open && document->events[document->event_count - 1].kind == kind) {
        rx_event *run = &document->events[document->event_count - 1];
        if (rx_store_text(document, bytes, (size_t)length) < 0) {
            rx_out_of_memory(ctxt);
            return;
        }
        run->text_length += (uint32_t)length;
        run->flag = run->flag && whitespace;
        return;
    }
    if (!rx_reserve((void **)&document->events, &document->event_capacity, document->event_count, 1, sizeof(rx_event))) {
        rx_out_of_memory(ctxt);
        return;
    }
    long long start = rx_store_text(document, bytes, (size_t)length);
    if (start < 0) {
        rx_out_of_memory(ctxt);
        return;
    }
    rx_event *event = &document->events[document->event_count++];
    event->offset = 0;
    event->text_start = (uint32_t)start;
    event->text_length = (uint32_t)length;
    event->end = 0;
    event->kind = kind;
    event->flag = (uint8_t)whitespace;
    document->run_open = 1;
}

static void rx_characters(void *ctx, const xmlChar *bytes, int length) {
    rx_text_piece(ctx, bytes, length, RX_EVENT_TEXT);
}

static void rx_cdata(void *ctx, const xmlChar *bytes, int length) {
    rx_text_piece(ctx, bytes, length, RX_EVENT_CDATA);
}

static int rx_is_apple_plist_dtd(const xmlChar *system_id) {
    static const char *const accepted[] = {
        "http://www.apple.com/DTDs/PropertyList-1.0.dtd",
        "https://www.apple.com/DTDs/PropertyList-1.0.dtd",
    };
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        if (system_id != NULL && strcmp((const char *)system_id, accepted[i]) == 0) {
            return 1;
        }
    }
    return 0;
}

static void rx_internal_subset(void *ctx, const xmlChar *name, const xmlChar *external_id,
                               const xmlChar *system_id) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_parse_state *state = rx_state(ctx);
    long long doctype = rx_scan_back(state, rx_current_offset(ctxt), "<!DOCTYPE");
    if (name == NULL || strcmp((const char *)name, "plist") != 0) {
        rx_refuse(ctxt, RX_ERROR_FORBIDDEN, doctype, "the DOCTYPE must name 'plist'");
        return;
    }
    if ((external_id != NULL || system_id != NULL) && !rx_is_apple_plist_dtd(system_id)) {
        rx_refuse(ctxt, RX_ERROR_FORBIDDEN, doctype,
                  "the DOCTYPE may only name Apple's property-list DTD "
                  "(http://www.apple.com/DTDs/PropertyList-1.0.dtd); nothing is fetched");
        return;
    }
    /* libxml2 calls this before reading an internal subset `[ ... ]`, standing on its `[`. */
    if (ctxt->input != NULL && ctxt->input->cur != NULL && *ctxt->input->cur == '[') {
        rx_refuse(ctxt, RX_ERROR_FORBIDDEN, rx_current_offset(ctxt),
                  "a DOCTYPE internal subset is not allowed (it could declare entities)");
    }
}

/* libxml2 also reads `<!DOCTYPE plist ...>[ ... ]`, a `[` after the DOCTYPE's `>`, as an
 * internal subset, after rx_internal_subset has returned. What it holds is refused here,
 * before libxml2 would attach it to a subset that was never made (and so leak it). */
static void rx_refuse_subset(void *ctx) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_refuse(ctxt, RX_ERROR_FORBIDDEN, rx_scan_back(rx_state(ctx), rx_current_offset(ctxt), "["),
              "a DOCTYPE internal subset is not allowed (it could declare entities)");
}

static void rx_comment(void *ctx, const xmlChar *value) {
    (void)value;
    if (((xmlParserCtxtPtr)ctx)->inSubset != 0) {
        rx_refuse_subset(ctx);
        return;
    }
    /* Comments are dropped, but they part the text around them. */
    rx_drop_blank_runs(rx_state(ctx)->document);
}

static void rx_element_decl(void *ctx, const xmlChar *name, int type, xmlElementContentPtr content) {
    (void)name;
    (void)type;
    (void)content;
    rx_refuse_subset(ctx);
}

static void rx_attribute_decl(void *ctx, const xmlChar *element, const xmlChar *name, int type, int def,
                              const xmlChar *default_value, xmlEnumerationPtr tree) {
    (void)element;
    (void)name;
    (void)type;
    (void)def;
    (void)default_value;
    /* libxml2 hands the enumeration over to this callback. */
    xmlFreeEnumeration(tree);
    rx_refuse_subset(ctx);
}

static void rx_notation_decl(void *ctx, const xmlChar *name, const xmlChar *public_id, const xmlChar *system_id) {
    (void)name;
    (void)public_id;
    (void)system_id;
    rx_refuse_subset(ctx);
}

static void rx_unparsed_entity_decl(void *ctx, const xmlChar *name, const xmlChar *public_id,
                                    const xmlChar *system_id, const xmlChar *notation) {
    (void)name;
    (void)public_id;
    (void)system_id;
    (void)notation;
    rx_refuse_subset(ctx);
}

static void rx_external_subset(void *ctx, const xmlChar *name, const xmlChar *external_id,
                               const xmlChar *system_id) {
    /* Never load an external DTD. */
    (void)ctx;
    (void)name;
    (void)external_id;
    (void)system_id;
}

static void rx_entity_decl(void *ctx, const xmlChar *name, int type, const xmlChar *public_id,
                           const xmlChar *system_id, xmlChar *content) {
    (void)name;
    (void)type;
    (void)public_id;
    (void)system_id;
    (void)content;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_refuse(ctxt, RX_ERROR_FORBIDDEN, rx_scan_back(rx_state(ctx), rx_current_offset(ctxt), "<!ENTITY"),
              "entity declarations are not allowed");
}

static xmlEntityPtr rx_get_entity(void *ctx, const xmlChar *name) {
    /* Only the five predefined entities exist; libxml2 resolves those itself. */
    (void)ctx;
    return xmlGetPredefinedEntity(name);
}

static xmlEntityPtr rx_get_parameter_entity(void *ctx, const xmlChar *name) {
    (void)ctx;
    (void)name;
    return NULL;
}

static void rx_reference(void *ctx, const xmlChar *name) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    char message[256];
    snprintf(message, sizeof message,
             "entity reference '&%.64s;' is not allowed; only &lt; &gt; &amp; &apos; &quot; and character "
             "references such as &#233; are",
             name != NULL ? (const char *)name : "");
    rx_refuse(ctxt, RX_ERROR_FORBIDDEN, rx_scan_back(rx_state(ctx), rx_current_offset(ctxt), "&"), message);
}

static xmlParserInputPtr rx_resolve_entity(void *ctx, const xmlChar *public_id, const xmlChar *system_id) {
    (void)public_id;
    (void)system_id;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_refuse(ctxt, RX_ERROR_FORBIDDEN, rx_current_offset(ctxt), "external entities are not allowed");
    return NULL;
}

static void rx_processing_instruction(void *ctx, const xmlChar *target, const xmlChar *data) {
    (void)target;
    (void)data;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_refuse(ctxt, RX_ERROR_FORBIDDEN, rx_scan_back(rx_state(ctx), rx_current_offset(ctxt), "<?"),
              "processing instructions are not allowed");
}

rx_document *rx_parse(const char *bytes, size_t length, int max_depth, long long max_values, rx_error *error) {
    memset(error, 0, sizeof *error);
    error->offset = -1;
    if (length > (size_t)INT32_MAX) {
        error->kind = RX_ERROR_INTERNAL;
        snprintf(error->message, sizeof error->message, "input too large");
        return NULL;
    }
    pthread_once(&rx_loader_once, rx_install_loader);

    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (ctxt == NULL) {
        error->kind = RX_ERROR_INTERNAL;
        snprintf(error->message, sizeof error->message, "could not create the XML parser");
        return NULL;
    }
    rx_document *document = (rx_document *)calloc(1, sizeof *document);
    if (document == NULL) {
        xmlFreeParserCtxt(ctxt);
        error->kind = RX_ERROR_INTERNAL;
        snprintf(error->message, sizeof error->message, "out of memory");
        return NULL;
    }
    rx_parse_state state = {bytes, length, 0, max_depth, 0, max_values, error, document};
    ctxt->_private = &state;

    xmlSAXHandlerPtr sax = ctxt->sax;
    sax->startElementNs = rx_start_element;
    sax->endElementNs = rx_end_element;
    /* The tape replaces libxml2's tree: no handler adds a node to it. */
    sax->characters = rx_characters;
    sax->ignorableWhitespace = rx_characters;
    sax->cdataBlock = rx_cdata;
    sax->internalSubset = rx_internal_subset;
    sax->externalSubset = rx_external_subset;
    sax->entityDecl = rx_entity_decl;
    sax->getEntity = rx_get_entity;
    sax->getParameterEntity = rx_get_parameter_entity;
    sax->reference = rx_reference;
    sax->resolveEntity = rx_resolve_entity;
    sax->processingInstruction = rx_processing_instruction;
    sax->comment = rx_comment;
    sax->elementDecl = rx_element_decl;
    sax->attributeDecl = rx_attribute_decl;
    sax->notationDecl = rx_notation_decl;
    sax->unparsedEntityDecl = rx_unparsed_entity_decl;
    sax->serror = rx_silent_structured;
    sax->error = NULL;
    sax->warning = NULL;
    ctxt->vctxt.error = NULL;
    ctxt->vctxt.warning = NULL;

    xmlGenericErrorFunc previous_generic = xmlGenericError;
    void *previous_generic_context = xmlGenericErrorContext;
    xmlSetGenericErrorFunc(NULL, rx_silent_generic);
    rx_inside_parse = 1;

    /* NONET and BIG_LINES only: NOENT would enable entity substitution, DTDLOAD would fetch
     * DTDs, RECOVER would accept broken documents, HUGE would lift libxml2's own limits. */
    xmlDocPtr doc = xmlCtxtReadMemory(ctxt, bytes, (int)length, "config.plist", "UTF-8",
                                      XML_PARSE_NONET | XML_PARSE_BIG_LINES);

    rx_inside_parse = 0;
    xmlSetGenericErrorFunc(previous_generic_context, previous_generic);

    if (error->kind == RX_ERROR_NONE && (doc == NULL || !ctxt->wellFormed)) {
        xmlErrorPtr last = xmlCtxtGetLastError(ctxt);
        error->kind = RX_ERROR_MALFORMED;
        if (last != NULL) {
            error->line = last->line;
            error->column = last->int2;
            snprintf(error->message, sizeof error->message, "%s",
                     last->message != NULL ? last->message : "malformed XML");
        } else {
            snprintf(error->message, sizeof error->message, "malformed XML");
        }
    }
    ctxt->_private = NULL;
    xmlFreeParserCtxt(ctxt);
    /* The document libxml2 made holds no node; only the tape is kept. */
    if (doc != NULL) {
        xmlFreeDoc(doc);
    }
    if (error->kind != RX_ERROR_NONE) {
        rx_document_free(document);
        return NULL;
    }
    free(document->open);
    document->open = NULL;
    document->open_capacity = 0;
    return document;
}

void rx_document_free(rx_document *document) {
    if (document != NULL) {
        free(document->events);
        free(document->text);
        free(document->open);
        free(document);
    }
}

const rx_event *rx_document_events(const rx_document *document, size_t *count) {
    *count = document->event_count;
    return document->events;
}

const unsigned char *rx_document_text(const rx_document *document, size_t *length) {
    *length = document->text_length;
    return document->text;
}
