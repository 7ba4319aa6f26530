#ifndef REMINDC_CRELAXNGVALIDATOR_H
#define REMINDC_CRELAXNGVALIDATOR_H

#include <stddef.h>

/// Validates the XML document `document` against the RELAX NG schema `schema` with
/// libxml2's own validator (the one behind `xmllint --relaxng`), independently of
/// remindc's reader. Returns 1 when valid, 0 when invalid, -1 when the schema or the
/// document cannot be parsed. The first validation message goes to `message`.
int rng_validate(const char *schema, size_t schema_length, const char *document, size_t document_length,
                 char *message, size_t message_capacity);

#endif
