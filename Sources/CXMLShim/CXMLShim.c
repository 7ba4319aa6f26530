#include "CXMLShim.h"

#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rx_document {
    xmlDocPtr doc;
};

/* Per-parse state, reached from the SAX callbacks through ctxt->_private. */
typedef struct {
    const char *input;
    size_t length;
    int depth;
    int max_depth;
    rx_error *error;
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

static void rx_start_element(void *ctx, const xmlChar *localname, const xmlChar *prefix,
                             const xmlChar *uri, int nb_namespaces, const xmlChar **namespaces,
                             int nb_attributes, int nb_defaulted, const xmlChar **attributes) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)ctx;
    rx_parse_state *state = rx_state(ctx);
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
    xmlSAX2StartElementNs(ctx, localname, prefix, uri, nb_namespaces, namespaces, nb_attributes,
                          nb_defaulted, attributes);
    if (ctxt->node != NULL) {
        ctxt->node->_private = (void *)(uintptr_t)(offset + 1);
    }
}

static void rx_end_element(void *ctx, const xmlChar *localname, const xmlChar *prefix, const xmlChar *uri) {
    rx_parse_state *state = rx_state(ctx);
    state->depth--;
    xmlSAX2EndElementNs(ctx, localname, prefix, uri);
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
    if (((xmlParserCtxtPtr)ctx)->inSubset != 0) {
        rx_refuse_subset(ctx);
        return;
    }
    xmlSAX2Comment(ctx, value);
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

rx_document *rx_parse(const char *bytes, size_t length, int max_depth, rx_error *error) {
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
    rx_parse_state state = {bytes, length, 0, max_depth, error};
    ctxt->_private = &state;

    xmlSAXHandlerPtr sax = ctxt->sax;
    sax->startElementNs = rx_start_element;
    sax->endElementNs = rx_end_element;
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

    if (error->kind != RX_ERROR_NONE) {
        if (doc != NULL) {
            xmlFreeDoc(doc);
        }
        return NULL;
    }
    rx_document *document = (rx_document *)calloc(1, sizeof *document);
    if (document == NULL) {
        xmlFreeDoc(doc);
        error->kind = RX_ERROR_INTERNAL;
        snprintf(error->message, sizeof error->message, "out of memory");
        return NULL;
    }
    document->doc = doc;
    return document;
}

void rx_document_free(rx_document *document) {
    if (document != NULL) {
        xmlFreeDoc(document->doc);
        free(document);
    }
}

const void *rx_document_root(const rx_document *document) {
    return xmlDocGetRootElement(document->doc);
}

const void *rx_node_first_child(const void *node) {
    return ((const xmlNode *)node)->children;
}

const void *rx_node_next_sibling(const void *node) {
    return ((const xmlNode *)node)->next;
}

rx_node_kind rx_node_kind_of(const void *node) {
    switch (((const xmlNode *)node)->type) {
    case XML_ELEMENT_NODE:
        return RX_NODE_ELEMENT;
    case XML_TEXT_NODE:
        return RX_NODE_TEXT;
    case XML_CDATA_SECTION_NODE:
        return RX_NODE_CDATA;
    case XML_COMMENT_NODE:
        return RX_NODE_COMMENT;
    default:
        return RX_NODE_OTHER;
    }
}

const char *rx_node_name(const void *node) {
    const xmlNode *element = (const xmlNode *)node;
    return element->type == XML_ELEMENT_NODE ? (const char *)element->name : NULL;
}

int rx_node_has_namespace(const void *node) {
    const xmlNode *element = (const xmlNode *)node;
    return element->ns != NULL || element->nsDef != NULL;
}

const char *rx_node_text(const void *node) {
    const xmlNode *text = (const xmlNode *)node;
    if (text->type == XML_TEXT_NODE || text->type == XML_CDATA_SECTION_NODE) {
        return (const char *)text->content;
    }
    return NULL;
}

long long rx_node_offset(const void *node) {
    return (long long)(uintptr_t)((const xmlNode *)node)->_private - 1;
}
