import Foundation
import Testing
@_spi(Tooling) @testable import ReminderCompiler

@Suite("JSON writer")
struct JSONWriterTests {
    @Test("any Unicode text, control characters included, reads back unchanged with JSONSerialization")
    func stringsRoundTrip() throws {
        let pieces = [
            "a", "é", "漢字", "💊", "👩‍👩‍👧", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", " ",
            "a plain run longer than eight bytes", "\u{2028}", "ß",
        ]
        var generator = SeededGenerator(seed: 8)
        for length in 0..<400 {
            var text = ""
            for _ in 0..<(length % 40) { text += pieces[Int.random(in: 0..<pieces.count, using: &generator)] }
            var writer = JSONWriter()
            writer.beginObject()
            writer.field("text", text)
            writer.endObject()
            let object = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [String: String]
            #expect(object?["text"] == text, "\(text.debugDescription)")
        }
    }

    @Test("numbers of every length and sign are written as String(describing:) writes them, zero-padded to a width")
    func decimals() {
        var generator = SeededGenerator(seed: 100)
        var values = [0, 1, 9, 10, 99, 100, 101, 999, 1000, 2_147_483_647, Int.max, Int.min, -1, -10, -100]
        for digits in 1...19 {
            let limit = (0..<digits).reduce(1) { result, _ in result.multipliedReportingOverflow(by: 10).partialValue }
            values.append(Int.random(in: 0...max(0, limit), using: &generator))
            values.append(-Int.random(in: 0...max(0, limit), using: &generator))
        }
        for value in values {
            for width in [1, 2, 4, 6] {
                let buffer = ByteBuffer()
                buffer.appendDecimal(value, width: width)
                let plain = String(value.magnitude)
                let expected = (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - plain.count)) + plain
                #expect(String(decoding: buffer.bytes, as: UTF8.self) == expected)
            }
            // Written in place, as a plan's notification ends (numericId, sequence).
            let buffer = ByteBuffer()
            buffer.append(atMost: 20) { putDecimal(value, at: $0) }
            #expect(String(decoding: buffer.bytes, as: UTF8.self) == String(value))
        }
    }

    @Test("byte runs of every length from 0 to 100, appended one after another, come out as the same bytes")
    func runsOfEveryLength() {
        // Lengths up to 64 are copied in overlapping blocks, longer ones by memmove: each
        // length, at each offset of the buffer's growth, must land exactly.
        var generator = SeededGenerator(seed: 102)
        let buffer = ByteBuffer(capacity: 16)
        var expected: [UInt8] = []
        for round in 0..<3 {
            for length in 0...100 {
                // A native string hands its bytes over in one piece, as prepared output does.
                let run = String(decoding: (0..<length).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }, as: UTF8.self)
                buffer.append(run)
                expected += Array(run.utf8)
                if round == 1 { buffer.append(UInt8(ascii: "|")); expected.append(UInt8(ascii: "|")) }
            }
        }
        #expect(buffer.count == expected.count)
        #expect(buffer.bytes == expected)
    }

    @Test("the decimal digits handed to hashing are String's, for every length and sign")
    func decimalDigitsOfEveryLength() {
        // Each power of ten and its neighbours (every digit count, and the change from an
        // odd to an even count), the ends of Int64, and random numbers of every size.
        var numbers: [Int64] = [0, 1, 9, 10, 11, 99, 100, 101, .max, .min, .max - 1, .min + 1]
        var power: Int64 = 1
        for _ in 0..<18 {
            power *= 10
            numbers += [power - 1, power, power + 1, -(power - 1), -power, -(power + 1)]
        }
        var generator = SeededGenerator(seed: 103)
        for bits in 0..<63 {
            let limit = Int64(1) << bits
            numbers += [Int64.random(in: 0...limit, using: &generator), -Int64.random(in: 0...limit, using: &generator)]
        }
        for number in numbers {
            let digits = withDecimalDigits(of: number) { Array($0) }
            #expect(digits == Array(String(number).utf8), "\(number)")
        }
    }

    @Test("dates are written as their components, in runs of one day and for years of any length")
    func repeatedDates() {
        let buffer = ByteBuffer()
        var expected = ""
        var generator = SeededGenerator(seed: 101)
        // Runs of the same day, as a plan writes them, and days of five-digit and negative years.
        for _ in 0..<300 {
            let day = [Int.random(in: -800_000...3_000_000, using: &generator), Int.random(in: 20_000...21_000, using: &generator)]
                .randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let date = CivilDate(dayNumber: day)
                date.appendISO8601(to: buffer)
                let (year, month, dayOfMonth) = date.components
                func padded(_ value: Int, _ width: Int) -> String {
                    let digits = String(value.magnitude)
                    return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
                }
                expected += "\(padded(year, 4))-\(padded(month, 2))-\(padded(dayOfMonth, 2));"
                buffer.append(UInt8(ascii: ";"))
            }
        }
        let same = String(decoding: buffer.bytes, as: UTF8.self) == expected
        #expect(same, "the dates differ")
    }

    @Test("instants and slots written again from the writer's remembered texts equal ones written afresh")
    func repeatedInstantsAndSlots() {
        var writer = JSONWriter()
        var expected = ""
        var generator = SeededGenerator(seed: 102)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        var seconds: Int64 = 1_795_000_000
        var offset = 3600
        var slot = LocalDateTime(date: CivilDate(dayNumber: 20_780), time: LocalTime(minuteOfDay: 480)!)
        // Runs of one instant and slot, as a plan writes them, changing one part at a time:
        // the same instant at another offset (or one with seconds, written in UTC), the same
        // slot on another day or at another minute, instants beyond the years 1-9999, and
        // slots of five-digit and negative years, which are too long to be remembered.
        for _ in 0..<600 {
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: seconds = seconds.magnitude > 300_000_000_000 ? 1_795_000_000 : seconds + Int64.random(in: 1...7200, using: &generator)
            case 1: offset = [3600, 7200, -12_600, 0, 45, 86_399, 200_000].randomElement(using: &generator)!
            case 2: seconds = [Int64.min, Int64.max, -62_135_596_801, 253_402_300_800].randomElement(using: &generator)!
            case 3: slot.date = CivilDate(dayNumber: Int.random(in: 20_000...21_000, using: &generator))
            case 4: slot.time = LocalTime(minuteOfDay: Int.random(in: 0..<1440, using: &generator))!
            case 5: slot.date = CivilDate(dayNumber: [-800_000, 3_000_000, 2_932_896].randomElement(using: &generator)!)
            default: break
            }
            let instant = ZonedInstant(seconds: seconds, offsetSeconds: offset)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                writer.instantValue(instant)
                writer.literalKey(" ")
                writer.slotValue(slot)
                writer.literalKey(";")
                let (year, month, day) = slot.date.components
                let slotText = "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T\(slot.time)"
                expected += "\"\(instant.rfc3339)\" \"\(slotText)\";"
            }
        }
        let same = String(decoding: writer.bytes, as: UTF8.self) == expected
        #expect(same, "the instants or slots differ")
    }
}
