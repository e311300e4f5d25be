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
/// with a small constant (Foundation's `JSONEncoder` took 0.9 s for the
/// 65,536 rows of a `gif info` frame table, this a fraction of that).
enum JSONOutput {
    /// `value` as JSON text.
    static func text(_ value: some Encodable) -> String {
        let root = JSONNode()
        // The reports are plain structs: encoding them cannot fail.
        do { try JSONTreeEncoder.put(value, in: root) } catch { root.kind = .null }
        var out: [UInt8] = []
        root.write(to: &out, indent: 0)
        return String(decoding: out, as: UTF8.self)
    }
}

/// A value in the tree ``JSONTreeEncoder`` builds: a class, so that
/// containers can fill it after handing it out.
final class JSONNode {
    enum Kind { case null, literal, string, array, object }
    var kind = Kind.null
    /// A literal's text (number, `true`, `false`) or a string's contents.
    var text = ""
    var items: [JSONNode] = []
    var members: [(key: String, node: JSONNode)] = []

    /// Appends this value, pretty-printed, at `indent` levels.
    func write(to out: inout [UInt8], indent: Int) {
        switch kind {
        case .null: out.append(contentsOf: "null".utf8)
        case .literal: out.append(contentsOf: text.utf8)
        case .string: Self.writeString(text, to: &out)
        case .array:
            guard !items.isEmpty else { return out.append(contentsOf: "[]".utf8) }
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                out.append(contentsOf: i == 0 ? "\n".utf8 : ",\n".utf8)
                Self.writeIndent(indent + 1, to: &out)
                item.write(to: &out, indent: indent + 1)
            }
            out.append(UInt8(ascii: "\n"))
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "]"))
        case .object:
            guard !members.isEmpty else { return out.append(contentsOf: "{}".utf8) }
            out.append(UInt8(ascii: "{"))
            for (i, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                out.append(contentsOf: i == 0 ? "\n".utf8 : ",\n".utf8)
                Self.writeIndent(indent + 1, to: &out)
                Self.writeString(member.key, to: &out)
                out.append(contentsOf: " : ".utf8)
                member.node.write(to: &out, indent: indent + 1)
            }
            out.append(UInt8(ascii: "\n"))
            Self.writeIndent(indent, to: &out)
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func writeIndent(_ levels: Int, to out: inout [UInt8]) {
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * levels))
    }

    /// A JSON string: quotes, backslashes and control characters escaped,
    /// everything else (slashes, non-ASCII) as it is.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
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

/// An `Encoder` that builds a ``JSONNode`` tree. Strings, booleans, integers
/// and doubles become leaves; everything else encodes itself into
/// containers. One generic method per container serves every value type.
struct JSONTreeEncoder: Encoder {
    let node: JSONNode
    var codingPath: [any CodingKey] = []
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// Stores `value` in `node`.
    static func put(_ value: some Encodable, in node: JSONNode) throws {
        switch value {
        case let string as String:
            node.kind = .string
            node.text = string
        case let bool as Bool:
            node.kind = .literal
            node.text = bool ? "true" : "false"
        case let int as Int:
            node.kind = .literal
            node.text = String(int)
        case let double as Double:
            node.kind = double.isFinite ? .literal : .null
            node.text = double.description
        default:
            try value.encode(to: JSONTreeEncoder(node: node))
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
            node.members.append((key.stringValue, child))
            return child
        }

        mutating func encodeNil(forKey key: Key) throws { _ = child(key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            try JSONTreeEncoder.put(value, in: child(key))
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
            node.items.append(child)
            return child
        }

        mutating func encodeNil() throws { _ = child() }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONTreeEncoder.put(value, in: child())
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

        mutating func encodeNil() throws { node.kind = .null }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try JSONTreeEncoder.put(value, in: node)
        }
    }
}
