#ifndef REMINDC_CXMLSHIM_H
#define REMINDC_CXMLSHIM_H

/*
 * A safe XML reader for property lists, exposed through plain C types only.
 *
 * Swift must never see a libxml2 header: on Linux they pull in the system ICU, whose
 * types clash with the ICU that Foundation brings. This header is the whole surface.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What a node of the parsed tree is.
typedef enum {
    RX_NODE_ELEMENT = 1,
    RX_NODE_TEXT = 2,
    RX_NODE_CDATA = 3,
    RX_NODE_COMMENT = 4,
    RX_NODE_OTHER = 5
} rx_node_kind;

/// Why a parse failed.
typedef enum {
    RX_ERROR_NONE = 0,
    /// libxml2 found the document not well-formed; line and column come from libxml2.
    RX_ERROR_MALFORMED = 1,
    /// The document uses a construct remindc refuses (entities, internal subsets, ...);
    /// `offset` is the byte offset of the construct in the input.
    RX_ERROR_FORBIDDEN = 2,
    /// Elements nest deeper than the caller's limit; `offset` is the offending element.
    RX_ERROR_TOO_DEEP = 3,
    /// The parser could not be created (out of memory).
    RX_ERROR_INTERNAL = 4
} rx_error_kind;

/// A parse failure, filled in by `rx_parse`.
typedef struct {
    rx_error_kind kind;
    /// 1-based line and column from libxml2 (RX_ERROR_MALFORMED), else 0.
    int line;
    int column;
    /// Byte offset into the input (RX_ERROR_FORBIDDEN, RX_ERROR_TOO_DEEP), else -1.
    long long offset;
    /// A NUL-terminated English message.
    char message[512];
} rx_error;

/// An opaque parsed document; free it with `rx_document_free`.
typedef struct rx_document rx_document;

/// Parses `length` bytes of UTF-8 XML without network access, DTD loading or entity
/// substitution. Documents with entity declarations or references, an internal DTD
/// subset, a DOCTYPE other than Apple's property-list DTD, or processing instructions are
/// refused. Returns NULL and fills `error` on failure. Never prints.
rx_document *rx_parse(const char *bytes, size_t length, int max_depth, rx_error *error);

/// Frees a document returned by `rx_parse`.
void rx_document_free(rx_document *document);

/// The root element, or NULL.
const void *rx_document_root(const rx_document *document);

/// Tree navigation; NULL at the end.
const void *rx_node_first_child(const void *node);
const void *rx_node_next_sibling(const void *node);

/// The node's kind.
rx_node_kind rx_node_kind_of(const void *node);

/// The element's local name (UTF-8), or NULL for other nodes.
const char *rx_node_name(const void *node);

/// Whether the element carries a namespace prefix or declaration.
int rx_node_has_namespace(const void *node);

/// The text of a text or CDATA node (UTF-8), or NULL.
const char *rx_node_text(const void *node);

/// The byte offset of the element's `<` in the input, or -1 when unknown.
long long rx_node_offset(const void *node);

#ifdef __cplusplus
}
#endif

#endif
