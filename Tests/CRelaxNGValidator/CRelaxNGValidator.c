#include "CRelaxNGValidator.h"

#include <libxml/parser.h>
#include <libxml/relaxng.h>
#include <libxml/xmlerror.h>
#include <stdio.h>
#include <string.h>

static void rng_capture(void *context, xmlErrorPtr error) {
    char *message = (char *)context;
    if (message[0] == '\0' && error != NULL && error->message != NULL) {
        snprintf(message, 400, "line %d: %s", error->line, error->message);
    }
}

int rng_validate(const char *schema, size_t schema_length, const char *document, size_t document_length,
                 char *message, size_t message_capacity) {
    char captured[400] = {0};
    int result = -1;
    xmlRelaxNGParserCtxtPtr parser = xmlRelaxNGNewMemParserCtxt(schema, (int)schema_length);
    xmlRelaxNGSetParserStructuredErrors(parser, rng_capture, captured);
    xmlRelaxNGPtr compiled = xmlRelaxNGParse(parser);
    xmlDocPtr doc = xmlReadMemory(document, (int)document_length, "document.xml", NULL, XML_PARSE_NONET);
    if (compiled != NULL && doc != NULL) {
        xmlRelaxNGValidCtxtPtr validator = xmlRelaxNGNewValidCtxt(compiled);
        xmlRelaxNGSetValidStructuredErrors(validator, rng_capture, captured);
        int status = xmlRelaxNGValidateDoc(validator, doc);
        result = status == 0 ? 1 : (status > 0 ? 0 : -1);
        xmlRelaxNGFreeValidCtxt(validator);
    }
    if (message != NULL && message_capacity > 0) {
        snprintf(message, message_capacity, "%s", captured);
    }
    if (doc != NULL) xmlFreeDoc(doc);
    if (compiled != NULL) xmlRelaxNGFree(compiled);
    xmlRelaxNGFreeParserCtxt(parser);
    return result;
}
