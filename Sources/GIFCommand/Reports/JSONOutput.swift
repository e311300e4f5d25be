/// An optional that the report's JSON always carries: `null` when absent,
/// where Swift's synthesised `Encodable` would leave the key out. Every key
/// of `gif info --json` and `gif bench --json` is therefore always present.
@propertyWrapper
struct NullWhenAbsent<Value: Codable & Equatable>: Codable, Equatable {
    var wrappedValue: Value?

    init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

/// The JSON output of the reports: pretty-printed (two spaces, `"key" : value`
/// as Foundation writes it), keys sorted, slashes kept as they are.
///
/// The reports' synthesised `Encodable` conformances build a small tree
/// (``JSONTreeEncoder``), written out in one buffer: linear in the values,
/// with a small constant, so a `gif info` frame table of tens of thousands
/// of rows takes a fraction of what Foundation's `JSONEncoder` does.
enum JSONOutput {
    /// `value` as JSON text.
    static func text(_ value: some Encodable) -> String {
        let root = JSONNode()
        // The reports are plain structs: encoding them cannot fail.
        do { try JSONTreeEncoder.put(value, in: root) } catch { root.value = .literal("null") }
        var out: [UInt8] = []
        root.write(to: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }
}

/// A value in the tree ``JSONTreeEncoder`` builds: a class, so that
/// containers can fill it after handing it out. Strings and literals are
/// held as text; only arrays and objects are nodes of their own.
final class JSONNode {
    /// A member or item: text ready to write, a nested node, or a value
    /// that writes itself.
    enum Value {
        case literal(String)
        case string(String)
        case node(JSONNode)
        case custom(any JSONWritable)
    }

    enum Kind { case value, array, object }
    var kind = Kind.value
    /// What a single value holds (`null` until set).
    var value = Value.literal("null")
    var items: [Value] = []
    var members: [(key: String, value: Value)] = []

    /// Appends this node, pretty-printed, at `indent` levels.
    func write(to out: inout [UInt8], indent: Int) {
        switch kind {
        case .value: Self.write(value, to: &out, indent: indent)
        case .array:
            guard !items.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                out.append(contentsOf: i == 0 ? "\n".utf8 : ",\n".utf8)
                Self.writeIndent(indent + 1, to: &out)
                Self.write(item, to: &out, indent: indent + 1)
            }
            out.append(UInt8(ascii: "\n"))
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object:
            guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            members.sort { $0.key < $1.key }
            for (i, member) in members.enumerated() {
                out.append(contentsOf: i == 0 ? "\n".utf8 : ",\n".utf8)
                Self.writeIndent(indent + 1, to: &out)
                Self.writeString(member.key, to: &out)
                out.append(contentsOf: " : ".utf8)
                Self.write(member.value, to: &out, indent: indent + 1)
            }
            out.append(UInt8(ascii: "\n"))
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func write(_ value: Value, to out: inout [UInt8], indent: Int) {
        switch value {
        case .literal(let text): out.append(contentsOf: text.utf8)
        case .string(let text): writeString(text, to: &out)
        case .node(let node): node.write(to: &out, indent: indent)
        case .custom(let value): value.writeJSON(to: &out, indent: indent)
        }
    }

    /// Writes an object whose members `body` writes in sorted key order,
    /// each through `member(key, text)`, where `text` is already JSON.
    static func writeObject(
        to out: inout [UInt8], indent: Int,
        _ body: (_ member: (_ key: StaticString, _ text: (inout [UInt8]) -> Void) -> Void) -> Void
    ) {
        // A closure cannot capture `out` (inout): collect into a local buffer.
        var buffer: [UInt8] = []
        swap(&buffer, &out)
        var first = true
        buffer.append(UInt8(ascii: "{"))
        body { key, text in
            buffer.append(contentsOf: first ? "\n".utf8 : ",\n".utf8)
            first = false
            writeIndent(indent + 1, to: &buffer)
            buffer.append(UInt8(ascii: "\""))
            key.withUTF8Buffer { buffer.append(contentsOf: $0) }
            buffer.append(contentsOf: "\" : ".utf8)
            text(&buffer)
        }
        buffer.append(UInt8(ascii: "\n"))
        writeIndent(indent, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
        swap(&buffer, &out)
    }

    static func writeIndent(_ levels: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * levels))
    }

    /// A JSON string: quotes, backslashes and control characters escaped,
    /// everything else (slashes, non-ASCII) as it is.
    static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        let plain = text.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
        guard !plain else {
            out.append(contentsOf: text.utf8)
            return out.append(UInt8(ascii: "\""))
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case UInt8(ascii: "\n"): out.append(contentsOf: "\\n".utf8)
            case UInt8(ascii: "\r"): out.append(contentsOf: "\\r".utf8)
            case UInt8(ascii: "\t"): out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// A value that writes its own JSON (at `indent` levels, pretty-printed,
/// keys sorted) instead of going through `Encodable`: for the rows of a
/// large table, where the generic path costs too much per value.
protocol JSONWritable {
    func writeJSON(to out: inout [UInt8], indent: Int)
}

/// An `Encoder` that builds a ``JSONNode`` tree. Strings, booleans, integers
/// and doubles become leaves; everything else encodes itself into
/// containers. One generic method per container serves every value type.
struct JSONTreeEncoder: Encoder {
    let node: JSONNode
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Stores `value` in `node`, as a single value.
    static func put(_ value: some Encodable, in node: JSONNode) throws {
        node.value = try self.value(value)
    }

    /// `value` as text if it is a string, a boolean or a number, else as a
    /// node it encodes itself into.
    static func value(_ value: some Encodable) throws -> JSONNode.Value {
        switch value {
        case let int as Int: return .literal(String(int))
        case let string as String: return .string(string)
        case let bool as Bool: return .literal(bool ? "true" : "false")
        case let double as Double: return .literal(double.isFinite ? double.description : "null")
        case let writable as any JSONWritable: return .custom(writable)
        default:
            let node = JSONNode()
            try value.encode(to: JSONTreeEncoder(node: node))
            return .node(node)
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.kind = .object
        return KeyedEncodingContainer(Keyed(node: node))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.kind = .array
        return Unkeyed(node: node)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        Single(node: node)
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: JSONNode
        var codingPath: [any CodingKey] { [] }

        private func child(_ key: Key) -> JSONNode {
            let child = JSONNode()
            node.members.append((key.stringValue, .node(child)))
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { node.members.append((key.stringValue, .literal("null"))) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            node.members.append((key.stringValue, try JSONTreeEncoder.value(value)))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(
            keyedBy keyType: NestedKey.Type, forKey key: Key
        ) -> KeyedEncodingContainer<NestedKey> {
            JSONTreeEncoder(node: child(key)).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            JSONTreeEncoder(node: child(key)).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            JSONTreeEncoder(node: child(Key(stringValue: "super")!))
        }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            JSONTreeEncoder(node: child(key))
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: JSONNode
        var codingPath: [any CodingKey] { [] }
        var count: Int { node.items.count }

        private func child() -> JSONNode {
            let child = JSONNode()
            node.items.append(.node(child))
            return child
        }

        mutating func encodeNil() throws { node.items.append(.literal("null")) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            node.items.append(try JSONTreeEncoder.value(value))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            JSONTreeEncoder(node: child()).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            JSONTreeEncoder(node: child()).unkeyedContainer()
        }

        mutating func superEncoder() -> any Encoder {
            JSONTreeEncoder(node: child())
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: JSONNode
        var codingPath: [any CodingKey] { [] }

        mutating func encodeNil() throws { node.value = .literal("null") }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONTreeEncoder.put(value, in: node)
        }
    }
}
