/// Parses the text of scalar plist elements with Apple's rules, reporting bad values.
enum PlistScalarParser {
    /// `<integer>`: optional sign, decimal digits or `0x` hex; surrounding whitespace
    /// ignored; values outside 64 bits are errors.
    static func integer(_ raw: String, at location: SourceLocation, diagnostics: inout DiagnosticCollector) -> PlistValue {
        var text = raw.trimmingXMLWhitespace()
        var negative = false
        if let sign = text.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            text = text.dropFirst()
        }
        var radix: UInt64 = 10
        if text.hasPrefix("0x") || text.hasPrefix("0X") {
            radix = 16
            text = text.dropFirst(2)
        }
        guard !text.isEmpty else {
            diagnostics.error(.notAnInteger(raw), at: location)
            return .invalid
        }
        var magnitude: UInt64 = 0
        for character in text {
            guard let digit = character.hexDigitValue, UInt64(digit) < radix else {
                diagnostics.error(.notAnInteger(raw), at: location)
                return .invalid
            }
            let (shifted, overflowShift) = magnitude.multipliedReportingOverflow(by: radix)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(UInt64(digit))
            if overflowShift || overflowAdd {
                diagnostics.error(.integerOverflow(raw), at: location)
                return .invalid
            }
            magnitude = sum
        }
        let limit = negative ? UInt64(Int64.max) + 1 : UInt64(Int64.max)
        guard magnitude <= limit else {
            diagnostics.error(.integerOverflow(raw), at: location)
            return .invalid
        }
        return .integer(negative ? Int64(truncatingIfNeeded: 0 &- magnitude) : Int64(magnitude))
    }

    /// `<real>`: a finite decimal number; `nan` and `inf` are refused.
    static func real(_ raw: String, at location: SourceLocation, diagnostics: inout DiagnosticCollector) -> PlistValue {
        let text = raw.trimmingXMLWhitespace()
        let allowed = Set("0123456789+-.eE")
        guard !text.isEmpty, text.allSatisfy(allowed.contains), let value = Double(text) else {
            let lowered = text.lowercased()
            if lowered.contains("nan") || lowered.contains("inf") {
                diagnostics.error(.realNotFinite(raw), at: location)
            } else {
                diagnostics.error(.notAReal(raw), at: location)
            }
            return .invalid
        }
        guard value.isFinite else {
            diagnostics.error(.realNotFinite(raw), at: location)
            return .invalid
        }
        return .real(value)
    }

    /// `<date>`: `YYYY-MM-DDTHH:MM:SSZ`, always UTC.
    static func date(_ raw: String, at location: SourceLocation, diagnostics: inout DiagnosticCollector) -> PlistValue {
        let text = Array(raw.trimmingXMLWhitespace().utf8)
        guard text.count == 20,
              let year = decimal(text[0..<4]), text[4] == UInt8(ascii: "-"),
              let month = decimal(text[5..<7]), text[7] == UInt8(ascii: "-"),
              let day = decimal(text[8..<10]), text[10] == UInt8(ascii: "T"),
              let hour = decimal(text[11..<13]), text[13] == UInt8(ascii: ":"),
              let minute = decimal(text[14..<16]), text[16] == UInt8(ascii: ":"),
              let second = decimal(text[17..<19]), text[19] == UInt8(ascii: "Z"),
              let date = CivilDate(year: year, month: month, day: day),
              hour < 24, minute < 60, second < 60
        else {
            diagnostics.error(.invalidPlistDate(raw), at: location)
            return .invalid
        }
        let seconds = Int64(date.dayNumber) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
        return .date(seconds)
    }

    /// `<data>`: base64, whitespace ignored.
    static func data(_ raw: String, at location: SourceLocation, diagnostics: inout DiagnosticCollector) -> PlistValue {
        guard let bytes = Base64.decode(raw.filter { !$0.isXMLWhitespace }) else {
            diagnostics.error(.invalidBase64, at: location)
            return .invalid
        }
        return .data(bytes)
    }

    /// The value of ASCII decimal digits, or nil.
    @inline(__always)  // Short digit runs of dates and times, read in place: a call each cost a W2 diff 11 M.
    static func decimal(_ digits: some Collection<UInt8>) -> Int? {
        var value = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int(digit - UInt8(ascii: "0"))
        }
        return digits.isEmpty ? nil : value
    }
}

/// Standard base64 (RFC 4648 §4) decoding with padding.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var table = [Int8](repeating: -1, count: 256)
        for (index, byte) in alphabet.enumerated() { table[Int(byte)] = Int8(index) }
        var input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var padding = 0
        while input.last == UInt8(ascii: "="), padding < 2 {
            input.removeLast()
            padding += 1
        }
        var output: [UInt8] = []
        output.reserveCapacity(input.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for byte in input {
            let value = table[Int(byte)]
            guard value >= 0 else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8((accumulator >> UInt32(bits)) & 0xFF))
            }
        }
        return output
    }
}
