/// Instants written as RFC 3339 text straight into a byte buffer.

extension ZonedInstant {
    /// Appends `rfc3339` to a byte buffer without intermediate strings.
    func appendRFC3339(to bytes: ByteBuffer) {
        let writable = writableOffset % 60 == 0
        let offset = writable ? writableOffset : 0
        let local = writableSeconds + Int64(offset)
        let (date, secondOfDay) = CivilDate.split(localSeconds: local)
        date.appendISO8601(to: bytes)
        unsafe bytes.append(atMost: 15) { destination in
            unsafe destination[0] = UInt8(ascii: "T")
            unsafe putDigits(secondOfDay / 3600, width: 2, at: destination + 1)
            unsafe destination[3] = UInt8(ascii: ":")
            unsafe putDigits(secondOfDay / 60 % 60, width: 2, at: destination + 4)
            unsafe destination[6] = UInt8(ascii: ":")
            unsafe putDigits(secondOfDay % 60, width: 2, at: destination + 7)
            guard writable else {
                unsafe destination[9] = UInt8(ascii: "Z")
                return 10
            }
            let magnitude = abs(offset)
            unsafe destination[9] = offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+")
            unsafe putDigits(magnitude / 3600, width: 2, at: destination + 10)
            unsafe destination[12] = UInt8(ascii: ":")
            unsafe putDigits(magnitude / 60 % 60, width: 2, at: destination + 13)
            return 15
        }
    }
}
