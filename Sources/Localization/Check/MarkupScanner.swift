/// Finds the tags and entities of notification body markup in a text.
struct MarkupScanner {
  /// A tag such as `<b>`, `</b>` or `<br/>`.
  struct Tag: Hashable {
    var name: String
    var isClosing: Bool
    var isSelfClosing: Bool
  }

  private(set) var tags: [Tag] = []
  private(set) var entities: [String] = []

  init(_ text: String) {
    let scalars = Array(text.unicodeScalars)
    var index = 0
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<", let (tag, end) = Self.tag(in: scalars, from: index) {
        tags.append(tag)
        index = end
      } else if scalar == "&", let (entity, end) = Self.entity(in: scalars, from: index) {
        entities.append(entity)
        index = end
      } else {
        index += 1
      }
    }
  }

  /// The first problem with the nesting of the tags, if any.
  var balanceProblem: String? {
    var open: [String] = []
    for tag in tags where !tag.isSelfClosing {
      if !tag.isClosing {
        open.append(tag.name)
      } else if open.last == tag.name {
        open.removeLast()
      } else {
        return "</\(tag.name)> closes " + (open.last.map { "<\($0)>" } ?? "nothing")
      }
    }
    return open.last.map { "<\($0)> is never closed" }
  }

  /// `<name …>`, `</name>` or `<name/>` starting at `start`, and the index after it.
  private static func tag(in scalars: [Unicode.Scalar], from start: Int) -> (Tag, Int)? {
    var index = start + 1
    let isClosing = index < scalars.count && scalars[index] == "/"
    if isClosing { index += 1 }
    let nameStart = index
    while index < scalars.count,
      scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index]),
      scalars[index].isASCII
    {
      index += 1
    }
    guard index > nameStart,
      let first = scalars[nameStart].properties.isAlphabetic ? scalars[nameStart] : nil,
      first.isASCII
    else { return nil }
    let name = String(String.UnicodeScalarView(scalars[nameStart..<index])).asciiLowercased
    while index < scalars.count, scalars[index] != ">", scalars[index] != "<", index - start < 200 {
      index += 1
    }
    guard index < scalars.count, scalars[index] == ">" else { return nil }
    let isSelfClosing = scalars[index - 1] == "/"
    return (Tag(name: name, isClosing: isClosing, isSelfClosing: isSelfClosing), index + 1)
  }

  /// `&name;` or `&#123;` starting at `start`, and the index after it.
  private static func entity(in scalars: [Unicode.Scalar], from start: Int) -> (String, Int)? {
    var index = start + 1
    while index < scalars.count, index - start <= 10,
      scalars[index].isASCII,
      scalars[index].properties.isAlphabetic || ("0"..."9").contains(scalars[index])
        || scalars[index] == "#"
    {
      index += 1
    }
    guard index > start + 1, index < scalars.count, scalars[index] == ";" else { return nil }
    return (String(String.UnicodeScalarView(scalars[start...index])), index + 1)
  }
}
