/// Little-endian integers, length-prefixed strings, a tag byte before each optional: the format
/// of Daybook's caches (decoded records, checked page facts). Written by hand because no listed
/// package encodes plain values compactly; Foundation's coders cost more than the work they save.
package struct ByteWriter: Sendable {
    package var bytes: [UInt8] = []

    package init() {}
    package mutating func uint64(_ value: UInt64) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
    package mutating func int(_ value: Int) { uint64(UInt64(bitPattern: Int64(value))) }
    package mutating func uint32(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }
    package mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    package mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            int(utf8.count)
            bytes += utf8
        }
    }
    package mutating func string(_ value: String?) {
        bool(value != nil)
        if let value { string(value) }
    }
    package mutating func int(_ value: Int?) {
        bool(value != nil)
        if let value { int(value) }
    }
    package mutating func double(_ value: Double?) {
        bool(value != nil)
        if let value { uint64(value.bitPattern) }
    }
    package mutating func instant(_ value: Instant) { uint64(value.secondsSince1970.bitPattern) }
    package mutating func instant(_ value: Instant?) { double(value?.secondsSince1970) }
    /// A place in the file; the path is the entry's own.
    package mutating func location(_ value: SourceLocation?) {
        bool(value != nil)
        if let value {
            int(value.line)
            int(value.column)
        }
    }
    package mutating func strings(_ values: [String]) {
        int(values.count)
        values.forEach { string($0) }
    }
}

/// Reads what `ByteWriter` wrote; every read checks the bytes left and gives `nil` past the end,
/// so damaged bytes (a cache lives in an untrusted folder) never crash or allocate without bound.
///
/// Public, where the rest of Daybook is `package`, and its reads `@inlinable`: Swift 6.3 inlines
/// and specializes across modules only public declarations (an `@inlinable package` function is
/// still called), and every memo, cache and record decoder in the other modules is a loop of
/// these reads, each a call that retained and released the bytes.
public struct ByteReader: Sendable {
    public let bytes: ArraySlice<UInt8>
    public var index: Int

    @inlinable public init(_ bytes: ArraySlice<UInt8>, at index: Int) {
        self.bytes = bytes
        self.index = index
    }
    @inlinable public var atEnd: Bool { index >= bytes.endIndex }

    @inlinable public mutating func uint64() -> UInt64? {
        guard bytes.endIndex - index >= 8 else { return nil }
        let offset = index - bytes.startIndex
        index += 8
        return bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
    @inlinable public mutating func int() -> Int? { uint64().map { Int(Int64(bitPattern: $0)) } }
    @inlinable public mutating func uint32() -> UInt32? {
        guard bytes.endIndex - index >= 4 else { return nil }
        let value = UInt32(bytes[index]) | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2]) << 16 | UInt32(bytes[index + 3]) << 24
        index += 4
        return value
    }
    @inlinable public mutating func bool() -> Bool? {
        guard index < bytes.endIndex, bytes[index] <= 1 else { return nil }
        index += 1
        return bytes[index - 1] == 1
    }
    @inlinable public mutating func bytes(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, bytes.endIndex - index >= count else { return nil }
        index += count
        return bytes[(index - count)..<index]
    }
    @inlinable public mutating func string() -> String? {
        guard let count = int(), count >= 0, bytes.endIndex - index >= count else { return nil }
        let offset = index - bytes.startIndex
        index += count
        // Read in place, with no slice of the bytes made: each slice counted a reference to the
        // one archive that every core decodes at once, a fifth of decoding the records.
        return bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[offset..<(offset + count)]), as: UTF8.self) }
    }
    /// `.some(nil)` for an absent value, `nil` for damaged bytes.
    @inlinable public mutating func optionalString() -> String?? {
        guard let present = bool() else { return nil }
        return present ? string().map { $0 } : .some(nil)
    }
    @inlinable public mutating func optionalInt() -> Int?? {
        guard let present = bool() else { return nil }
        return present ? int().map { $0 } : .some(nil)
    }
    /// A number content can hold: a NaN or an infinity never comes from a record (the readers
    /// bound every number), so one read back is damage, and a NaN would not even equal itself.
    @inlinable public mutating func finiteDouble() -> Double? {
        uint64().map { Double(bitPattern: $0) }.flatMap { $0.isFinite ? $0 : nil }
    }
    @inlinable public mutating func optionalDouble() -> Double?? {
        guard let present = bool() else { return nil }
        return present ? finiteDouble().map { $0 } : .some(nil)
    }
    package mutating func instant() -> Instant? { finiteDouble().map(Instant.init(secondsSince1970:)) }
    package mutating func optionalInstant() -> Instant?? {
        guard let seconds = optionalDouble() else { return nil }
        return .some(seconds.map(Instant.init(secondsSince1970:)))
    }
    package mutating func location(path: String) -> SourceLocation?? {
        guard let present = bool() else { return nil }
        guard present else { return .some(nil) }
        guard let line = optionalInt(), let column = optionalInt() else { return nil }
        return SourceLocation(path: path, line: line, column: column)
    }
    /// A count no larger than the bytes left could hold, so a damaged count cannot ask for gigabytes.
    @inlinable public mutating func count() -> Int? {
        guard let count = int(), count >= 0, count <= bytes.endIndex - index else { return nil }
        return count
    }
    /// A list's count (four bytes), when the bytes left could hold that many elements of at least
    /// `minimumBytes` each: a damaged count cannot ask for more than there is. Read the elements
    /// with `ByteReader.elements`.
    @inlinable public mutating func listCount(minimumBytes: Int) -> Int? {
        guard let count = uint32(), Int(count) <= (bytes.endIndex - index) / max(1, minimumBytes) else { return nil }
        return Int(count)
    }

    /// `count` elements, each read by `element`; `nil` when the count is or as soon as one is.
    /// Inlinable, so that each caller's element type is known where it is read.
    @inlinable public static func elements<T>(_ count: Int?, _ element: () -> T?) -> [T]? {
        guard let count else { return nil }
        var values: [T] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            guard let value = element() else { return nil }
            values.append(value)
        }
        return values
    }

    @inlinable public mutating func strings() -> [String]? { Self.elements(count()) { string() } }
}

// MARK: - Keyed entries

// Both caches end in the same list of entries: a key, a length, that many bytes, to the end.

extension ByteWriter {
    /// What goes before an entry's payload.
    package static func entryHeader(key: UInt64, length: Int) -> [UInt8] {
        var header = ByteWriter()
        header.uint64(key)
        header.int(length)
        return header.bytes
    }
}

extension ByteReader {
    /// Every entry from here to the end, payloads as slices of the bytes read; `nil` when one is
    /// cut short or claims more bytes than are left.
    package mutating func keyedEntries() -> [UInt64: ArraySlice<UInt8>]? {
        var entries: [UInt64: ArraySlice<UInt8>] = [:]
        while !atEnd {
            guard let key = uint64(), let length = int(), let payload = bytes(length) else { return nil }
            entries[key] = payload
        }
        return entries
    }
}
