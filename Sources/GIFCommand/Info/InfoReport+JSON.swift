/// The frame table's rows write their own JSON: for a file of 65,536 frames
/// they are nearly all of `gif info --json`'s output, and the generic
/// `Encodable` path costs several times more per value. The keys are
/// written in sorted order, as ``JSONOutput`` sorts every other object.
extension InfoReport.Frame: JSONWritable {
    func writeJSON(to out: inout [UInt8], indent: Int) {
        JSONNode.writeObject(to: &out, indent: indent) { member in
            member("dataOffset") { $0.append(contentsOf: String(dataOffset).utf8) }
            member("delayCentiseconds") { $0.append(contentsOf: String(delayCentiseconds).utf8) }
            member("delayMilliseconds") { $0.append(contentsOf: String(delayMilliseconds).utf8) }
            member("disposal") { $0.append(contentsOf: String(disposal).utf8) }
            member("disposalName") { JSONNode.writeString(disposalName, to: &$0) }
            member("index") { $0.append(contentsOf: String(index).utf8) }
            member("interlaced") { $0.append(contentsOf: (interlaced ? "true" : "false").utf8) }
            member("localPaletteSize") { $0.append(contentsOf: (localPaletteSize.map(String.init) ?? "null").utf8) }
            member("rect") { rect.writeJSON(to: &$0, indent: indent + 1) }
            member("transparentIndex") { $0.append(contentsOf: (transparentIndex.map(String.init) ?? "null").utf8) }
        }
    }
}

extension InfoReport.Rect: JSONWritable {
    func writeJSON(to out: inout [UInt8], indent: Int) {
        JSONNode.writeObject(to: &out, indent: indent) { member in
            member("height") { $0.append(contentsOf: String(height).utf8) }
            member("width") { $0.append(contentsOf: String(width).utf8) }
            member("x") { $0.append(contentsOf: String(x).utf8) }
            member("y") { $0.append(contentsOf: String(y).utf8) }
        }
    }
}
