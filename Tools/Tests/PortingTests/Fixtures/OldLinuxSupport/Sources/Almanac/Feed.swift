import Foundation

/// The almanac's feed: the request for it and a parser of its XML, with Foundation alone, as on
/// Apple's platforms (Linux keeps URLRequest and XMLParser in modules of their own).
public final class FeedReader: NSObject, XMLParserDelegate {
  public private(set) var titles: [String] = []
  private var text = ""

  public static func request(for url: URL) -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = "GET"
    return request
  }

  public func read(_ data: Data) -> [String] {
    let parser = XMLParser(data: data)
    parser.delegate = self
    _ = parser.parse()
    return titles
  }

  public func parser(
    _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
    attributes attributeDict: [String: String] = [:]
  ) {
    text = ""
  }

  public func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

  public func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
    if elementName == "title" { titles.append(text) }
  }
}
