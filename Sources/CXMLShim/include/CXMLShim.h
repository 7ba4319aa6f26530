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

/// What an entry of a parsed document's tape is.
typedef enum {
    RX_EVENT_ELEMENT = 1,
    RX_EVENT_TEXT = 2,
    RX_EVENT_CDATA = 3
} rx_event_kind;

/// One entry of a parsed document, in document order: an element (its children follow it,
/// up to `end`) or a run of text or CDATA. Comments are left out; text on either side of
/// one stays two runs, as it would be two nodes of a tree.
typedef struct {
    /// The byte offset of the element's `<` in the input; 0 for text.
    uint32_t offset;
    /// The element's name (`prefix:name` when the prefix is undeclared), or the decoded
    /// text, as a range of the document's text store.
    uint32_t text_start;
    uint32_t text_length;
    /// For an element, the index of the first entry after its last descendant.
    uint32_t end;
    /// An `rx_event_kind`.
    uint8_t kind;
    /// For an element: it declares a namespace or is in one (a declared prefix, or a
    /// default namespace around it).
    /// For text: it holds nothing but XML whitespace.
    uint8_t flag;
} rx_event;

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
    /// The parser could not be created, or memory ran out while reading.
    RX_ERROR_INTERNAL = 4,
    /// The document holds more elements than the caller's limit; `offset` is the first one
    /// past it.
    RX_ERROR_TOO_MANY_VALUES = 5
} rx_error_kind;

/// A parse failure, filled in by `rx_parse`.
typedef struct {
    rx_error_kind kind;
    /// 1-based line and column from libxml2 (RX_ERROR_MALFORMED), else 0.
    int line;
    int column;
    /// Byte offset into the input (RX_ERROR_FORBIDDEN, RX_ERROR_TOO_DEEP,
    /// RX_ERROR_TOO_MANY_VALUES), else -1.
    long long offset;
    /// A NUL-terminated English message.
    char message[512];
} rx_error;

/// An opaque parsed document; free it with `rx_document_free`.
typedef struct rx_document rx_document;

/// Parses `length` bytes of UTF-8 XML without network access, DTD loading or entity
/// substitution, into a flat tape of elements and texts rather than a tree: a few bytes
/// per node instead of libxml2's nodes. Documents with entity declarations or references,
/// an internal DTD subset, a DOCTYPE other than Apple's property-list DTD, or processing
/// instructions are refused, and so is a document of more than `max_values` elements.
/// Returns NULL and fills `error` on failure. Never prints.
rx_document *rx_parse(const char *bytes, size_t length, int max_depth, long long max_values, rx_error *error);

/// Frees a document returned by `rx_parse`.
void rx_document_free(rx_document *document);

/// The document's entries; the first is the root element. `count` receives their number.
const rx_event *rx_document_events(const rx_document *document, size_t *count);

/// The store that the entries' text ranges point into; `length` receives its size.
const unsigned char *rx_document_text(const rx_document *document, size_t *length);

#ifdef __cplusplus
}
#endif

#endif
