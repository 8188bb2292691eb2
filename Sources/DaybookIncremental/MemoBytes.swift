import DaybookModel

/// The values of memoised steps as bytes: variable-length integers (zigzag for signed ones) and
/// length-prefixed UTF-8. Written by hand, as `ByteWriter` is, because no listed package encodes
/// plain values compactly: a medium site's search postings are two million small numbers,
/// three times larger at eight bytes each.
package struct MemoWriter: Sendable {
    package private(set) var bytes: [UInt8] = []

    package init(reserving capacity: Int = 0) { bytes.reserveCapacity(capacity) }

    package mutating func count(_ value: Int) { unsigned(UInt64(max(0, value))) }

    package mutating func unsigned(_ value: UInt64) {
        if value < 0x80 {
            bytes.append(UInt8(value))
            return
        }
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    package mutating func signed(_ value: Int) {
        let wide = Int64(value)
        unsigned(UInt64(bitPattern: (wide << 1) ^ (wide >> 63)))
    }

    package mutating func fixed(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    package mutating func string(_ text: String) {
        count(text.utf8.count)
        // Native strings hand their bytes over at once; others (bridged) go byte by byte.
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil { bytes += text.utf8 }
    }
}

/// Reads what `MemoWriter` wrote. Every read is bounds-checked and gives `nil` past the end or on
/// a malformed number, and no count can ask for more elements than bytes are left: a memo lives
/// in an untrusted folder.
package struct MemoReader {
    private let bytes: ArraySlice<UInt8>
    private var index: Int

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        index = bytes.startIndex
    }

    package var atEnd: Bool { index == bytes.endIndex }

    package mutating func unsigned() -> UInt64? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.endIndex, shift < 64 {
            let byte = bytes[index]
            index += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
        return nil
    }

    package mutating func signed() -> Int? {
        unsigned().map { Int(truncatingIfNeeded: Int64(bitPattern: $0 >> 1) ^ -Int64(bitPattern: $0 & 1)) }
    }

    /// A count of elements of at least one byte each, so no larger than the bytes left.
    package mutating func count() -> Int? {
        guard let value = unsigned(), value <= UInt64(bytes.endIndex - index) else { return nil }
        return Int(value)
    }

    package mutating func fixed() -> UInt64? {
        guard bytes.endIndex - index >= 8 else { return nil }
        var value: UInt64 = 0
        for offset in 0..<8 { value |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
        index += 8
        return value
    }

    package mutating func string() -> String? {
        guard let length = count() else { return nil }
        let start = index
        index += length
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    /// `count` elements, each read by `element`; `nil` as soon as one is.
    package mutating func elements<T>(_ element: (inout MemoReader) -> T?) -> [T]? {
        guard let count = count() else { return nil }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = element(&self) else { return nil }
            values.append(value)
        }
        return values
    }
}

extension MemoWriter {
    /// A problem as it prints: its severity, message and place.
    package mutating func diagnostic(_ diagnostic: Diagnostic) {
        count(diagnostic.severity == .error ? 1 : 0)
        string(diagnostic.message)
        string(diagnostic.location.path)
        count(diagnostic.location.line.map { $0 + 1 } ?? 0)
        count(diagnostic.location.column.map { $0 + 1 } ?? 0)
    }
}

extension MemoReader {
    package mutating func diagnostic() -> Diagnostic? {
        guard let severity = count(), severity <= 1, let message = string(), let path = string(),
            let line = unsigned(), let column = unsigned(), line < UInt64(Int.max), column < UInt64(Int.max)
        else { return nil }
        let location = SourceLocation(path: path, line: line == 0 ? nil : Int(line) - 1, column: column == 0 ? nil : Int(column) - 1)
        return Diagnostic(severity == 1 ? .error : .warning, message, at: location)
    }
}
