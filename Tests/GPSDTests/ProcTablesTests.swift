import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// The tests find a child's listener and a client's connection in `/proc/net/tcp`: the table
/// must be read whole, however many sockets the machine has (a loaded test run has hundreds).
@Suite("Test support: /proc's tables read whole")
struct ProcTablesTests {
  @Test("every one of 300 listening sockets is in /proc/net/tcp as read")
  func everySocketIsFound() throws {
    var descriptors: [Int32] = []
    defer { descriptors.forEach { close($0) } }
    for _ in 0..<300 {
      let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
      try #require(fd >= 0)
      descriptors.append(fd)
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      let listening = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
      }
      try #require(listening && listen(fd, 1) == 0)
    }
    let ours = socketInodes(of: getpid())
    let listed = Set(ProcNetSocket.table("tcp").map(\.inode))
    let missing = descriptors.count - ours.intersection(listed).count
    #expect(ours.intersection(listed).count >= descriptors.count, "\(missing) of this test's sockets are not in the table as read")
  }
}
