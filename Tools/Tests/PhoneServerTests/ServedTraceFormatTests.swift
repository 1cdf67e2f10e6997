import LocationEmulatorClient
import Testing
import Traces

@testable import PhoneServer

/// The wire model names trace formats without depending on the trace library; the server maps
/// one to the other.
@Suite("the API's trace formats")
struct TraceFormatTests {
  @Test func theAPINamesEveryFormatTheTraceLibraryReadsByItsName() {
    #expect(Wire.TraceFormat.allCases.map(\.rawValue) == Trace.Format.allCases.map(\.rawValue))
    for format in Wire.TraceFormat.allCases {
      #expect(Trace.Format(format).rawValue == format.rawValue)
    }
  }
}
