/// The plan JSON's notification records, read in place through pointers (see the
/// invariants in `Unsafe`'s overview in Internals).

extension PlanJSON {
    static func write(_ notification: borrowing PlannedNotification, to writer: inout JSONWriter) {
        unsafe withUnsafePointer(to: notification) { unsafe write(at: $0, to: &writer) }
    }

    /// `write` of the notification a pointer points to. Its fields are read in place: a
    /// notification passed as a value is copied first (its references retained and
    /// released) since the writing might change the memory it came from.
    static func write(at notification: UnsafePointer<PlannedNotification>, to writer: inout JSONWriter) {
        writer.beginObject()
        if let (parts, idKeyNeedsNoEscape) = unsafe notification.pointee.content.prepared.map({ ($0.parts, $0.idKeyNeedsNoEscape) }),
           let fingerprintFields = unsafe notification.pointee.content.fingerprintFields, writer.depth == PreparedContent.jsonDepth {
            writer.literalKey("\n      \"id\": ")
            unsafe writeAtPlanDepth(
                notification, parts: parts, idKeyNeedsNoEscape: idKeyNeedsNoEscape, fingerprintFields: fingerprintFields, to: &writer
            )
        } else {
            unsafe writeFieldByField(notification.pointee, to: &writer)
        }
        writer.endObject()
    }

    /// `write(at:to:)` of an element of a plan's `notifications`, the element's comma,
    /// opening, first key and closing each written in one piece with the rest: W2's plan
    /// JSON wrote them in five pieces a notification.
    static func writeElement(at notification: UnsafePointer<PlannedNotification>, to writer: inout JSONWriter) {
        // What the prepared content holds is taken out at once: holding the content over the
        // writing cost a retain and a release a notification.
        guard let (parts, idKeyNeedsNoEscape) = unsafe notification.pointee.content.prepared.map({ ($0.parts, $0.idKeyNeedsNoEscape) }),
              let fingerprintFields = unsafe notification.pointee.content.fingerprintFields,
              writer.depth == PreparedContent.jsonDepth - 1
        else {
            writer.element()
            unsafe write(at: notification, to: &writer)
            return
        }
        writer.openObjectElement(withFirstKey: "\n    {\n      \"id\": ", orAfterAnother: ",\n    {\n      \"id\": ")
        unsafe writeAtPlanDepth(
            notification, parts: parts, idKeyNeedsNoEscape: idKeyNeedsNoEscape, fingerprintFields: fingerprintFields, to: &writer
        )
        writer.closeObject(literal: "\n    }")
    }

    /// A notification at its depth in a plan, with its content's fields written ahead (the
    /// fields and order of `write`, and its bytes: tested), from its ID's value on: the
    /// caller has written the `id` key. The keys are literals with their indentation:
    /// written key by key, the keys of a year of notifications cost a fifth of the whole
    /// plan's writing.
    private static func writeAtPlanDepth(
        _ pointer: UnsafePointer<PlannedNotification>, parts: PreparedContent.Parts, idKeyNeedsNoEscape: Bool,
        fingerprintFields: UnsafeBufferPointer<UInt8>, to writer: inout JSONWriter
    ) {
        let instant = unsafe pointer.pointee.fireAt.seconds
        // The ID is joined once, for the field and the fingerprint, which is written later.
        let key = unsafe pointer.pointee.content.idKeyBytes
        var fingerprint: UInt64 = 0
        if case .occurrence(let tail) = unsafe pointer.pointee.storedID, idKeyNeedsNoEscape {
            // Key and tail (digits and `-`) need no escape: joined in place in the output
            // and hashed from there.
            // The writer is busy while the closure writes into it: its instant digits are
            // taken out for the hash and put back.
            var instantDigits = writer.lastFingerprintInstant
            unsafe writer.literalFields(atMost: key.count + OccurrenceTail.maximumLength + 2) { destination in
                unsafe destination[0] = UInt8(ascii: "\"")
                let length = unsafe tail.write(after: key, at: destination + 1)
                unsafe destination[1 + length] = UInt8(ascii: "\"")
                let id = unsafe UnsafeBufferPointer(start: destination + 1, count: length)
                fingerprint = unsafe instantDigits.withDigits(of: instant) {
                    unsafe FingerprintHash.value(id: id, instantDigits: $0, fields: fingerprintFields)
                }
                return length + 2
            }
            writer.lastFingerprintInstant = instantDigits
        } else {
            fingerprint = unsafe pointer.pointee.storedID.withBytes(key: key) { id in
                unsafe writer.string(utf8: id)
                return unsafe FingerprintHash.value(id: id, instant: instant, fields: fingerprintFields)
            }
        }
        switch unsafe pointer.pointee.kind {
        case .single: writer.literalKey(",\n      \"kind\": \"single\",\n      \"fireAt\": ")
        case .group: writer.literalKey(",\n      \"kind\": \"group\",\n      \"fireAt\": ")
        case .followUp: writer.literalKey(",\n      \"kind\": \"followUp\",\n      \"fireAt\": ")
        case .snooze: writer.literalKey(",\n      \"kind\": \"snooze\",\n      \"fireAt\": ")
        }
        unsafe writer.instantValue(pointer.pointee.fireAt)
        if let deferredFrom = unsafe pointer.pointee.deferredFrom {
            writer.literalKey(",\n      \"deferredFrom\": ")
            writer.instantValue(deferredFrom)
        }
        writer.literalKey(",\n      \"slot\": ")
        unsafe writer.slotValue(pointer.pointee.slot)
        if unsafe pointer.pointee.storedParent == nil && pointer.pointee.replaces.isEmpty {
            // Nothing comes between the content's fields: one copy instead of three.
            unsafe writer.appendFragment(parts.jsonMembersThroughDuration)
        } else {
            unsafe writer.appendFragment(parts.jsonMembers)
            unsafe pointer.pointee.storedParent?.withBytes(key: key) { parent in
                writer.literalKey(",\n      \"parent\": ")
                unsafe writer.string(utf8: parent)
            }
            unsafe writer.appendFragment(parts.jsonTexts)
            if unsafe !pointer.pointee.replaces.isEmpty {
                writer.literalKey(",\n      \"replaces\": ")
                unsafe writer.strings(pointer.pointee.replaces)
            }
            unsafe writer.appendFragment(parts.jsonDuration)
        }
        // numericId, fingerprint and sequence, keys and values, written in one piece.
        let numericId = unsafe Int(pointer.pointee.numericId)
        let sequence = unsafe pointer.pointee.sequence
        unsafe writer.literalFields(atMost: 120) { destination in
            var length = unsafe putLiteral(",\n      \"numericId\": ", at: destination)
            unsafe length += putDecimal(numericId, at: destination + length)
            unsafe length += putLiteral(",\n      \"fingerprint\": \"", at: destination + length)
            unsafe FingerprintHash.putHexDigits(of: fingerprint, at: destination + length)
            length += 16
            unsafe length += putLiteral("\",\n      \"sequence\": ", at: destination + length)
            unsafe length += putDecimal(sequence, at: destination + length)
            return length
        }
    }
}

extension JSONWriter {
    /// Appends each notification as an element of the open array, each read in place rather
    /// than copied, and hands the bytes to `sink` whenever `chunkSize` of them are waiting.
    mutating func appendNotifications(
        _ notifications: [PlannedNotification], flushingAt chunkSize: Int, to sink: (Span<UInt8>) throws -> Void
    ) rethrows {
        unsafe try notifications.withUnsafeBufferPointer { buffer in
            guard let first = buffer.baseAddress else { return }
            for index in buffer.indices {
                unsafe PlanJSON.writeElement(at: first + index, to: &self)
                if byteCount >= chunkSize { try flush(to: sink) }
            }
        }
    }
}
