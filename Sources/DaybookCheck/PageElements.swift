import CGumbo

/// One element of a page as a browser builds it: what a security test looks at.
package struct PageElement: Sendable, Hashable {
    package enum Namespace: String, Sendable {
        case html, svg, mathml
    }

    /// Lower-case tag name (`script`, `a`, or the name as written for tags HTML does not know).
    package var name: String
    package var namespace: Namespace
    /// Names and values in source order; values with character references already decoded.
    package var attributes: [Attribute]
    /// The text directly inside the element (for `<script>` and `<style>`, their whole content).
    package var text: String
    package var line: Int
    package var column: Int

    package struct Attribute: Sendable, Hashable {
        package var name: String
        package var value: String
    }
}

extension PageElement {
    /// Every element of `html`, in document order, parsed with gumbo's HTML5 algorithm, so
    /// "an element" means what a browser would make of the bytes, however they were written.
    package static func all(in html: [UInt8]) -> [PageElement] {
        var options = kGumboDefaultOptions
        options.tab_stop = 1
        let output: UnsafeMutablePointer<GumboOutput>? = html.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                gumbo_parse_with_options(&options, chars.baseAddress, chars.count)
            }
        }
        guard let output else { return [] }
        defer { gumbo_destroy_output(&options, output) }
        var elements: [PageElement] = []
        collect(output.pointee.root, into: &elements)
        return elements
    }

    private static func collect(_ node: UnsafeMutablePointer<GumboNode>?, into elements: inout [PageElement]) {
        guard let node, node.pointee.type == GUMBO_NODE_ELEMENT || node.pointee.type == GUMBO_NODE_TEMPLATE else { return }
        let element = node.pointee.v.element
        var name = String(cString: gumbo_normalized_tagname(element.tag))
        if element.tag == GUMBO_TAG_UNKNOWN {
            var piece = element.original_tag
            gumbo_tag_from_original_text(&piece)
            name = piece.data.map { String(decoding: UnsafeRawBufferPointer(start: $0, count: piece.length), as: UTF8.self).lowercased() } ?? ""
        }
        let namespace: Namespace = switch element.tag_namespace {
        case GUMBO_NAMESPACE_SVG: .svg
        case GUMBO_NAMESPACE_MATHML: .mathml
        default: .html
        }
        var attributes: [Attribute] = []
        for index in 0..<Int(element.attributes.length) {
            guard let attribute = element.attributes.data[index]?.assumingMemoryBound(to: GumboAttribute.self).pointee else { continue }
            attributes.append(Attribute(name: String(cString: attribute.name), value: String(cString: attribute.value)))
        }
        var text = ""
        let children = element.children
        for index in 0..<Int(children.length) {
            guard let child = children.data[index]?.assumingMemoryBound(to: GumboNode.self) else { continue }
            switch child.pointee.type {
            case GUMBO_NODE_TEXT, GUMBO_NODE_WHITESPACE, GUMBO_NODE_CDATA: text += String(cString: child.pointee.v.text.text)
            default: break
            }
        }
        elements.append(PageElement(
            name: name, namespace: namespace, attributes: attributes, text: text,
            line: Int(element.start_pos.line), column: Int(element.start_pos.column)))
        for index in 0..<Int(children.length) {
            collect(children.data[index]?.assumingMemoryBound(to: GumboNode.self), into: &elements)
        }
    }
}
