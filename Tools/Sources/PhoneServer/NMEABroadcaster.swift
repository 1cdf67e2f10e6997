import Foundation
import Geo
import LocationModel

/// Every client of an ``NMEATCPServer`` gets the same text, as the clients of a GPS receiver
/// on a network port do (`locemu serve --nmea-listen`): ``send(_:)`` hands it to each.
///
/// A client that stops reading is dropped (closed) once ``clientBacklog`` sends are waiting
/// for it, so it never slows the others or grows the server's memory.
package final class NMEABroadcaster: Sendable {
  /// Sends a client may fall behind before it is dropped (about a minute of a receiver's epochs).
  package static let clientBacklog = 64

  package let server: NMEATCPServer
  private let clients = Locked<[Int: AsyncStream<String>.Continuation]>([:])
  private let log: @Sendable (String) -> Void
  private let clientCountChanged: @Sendable (Int) -> Void

  /// The port clients connect to.
  package var port: Int { server.port }
  /// Clients connected now.
  package var clientCount: Int { clients.withLock { $0.count } }

  /// - Parameter clientCountChanged: called with the number of clients each time one connects,
  ///   leaves or is dropped, in that order (while the count is held: it must not call back).
  package init(
    server: NMEATCPServer, log: @escaping @Sendable (String) -> Void = { _ in },
    clientCountChanged: @escaping @Sendable (Int) -> Void = { _ in }
  ) {
    self.server = server
    self.log = log
    self.clientCountChanged = clientCountChanged
  }

  /// Sends `text` to every client; a client too far behind is dropped instead.
  package func send(_ text: String) {
    let dropped = clients.withLock { clients -> [AsyncStream<String>.Continuation] in
      var dropped: [AsyncStream<String>.Continuation] = []
      for (number, client) in clients {
        if case .dropped = client.yield(text) {
          dropped.append(client)
          clients[number] = nil
          log("NMEA client \(number) stopped reading: dropped")
        }
      }
      if !dropped.isEmpty { clientCountChanged(clients.count) }
      return dropped
    }
    for client in dropped { client.finish() }
  }

  /// Serves clients until cancelled; each gets what is sent from its connection on.
  package func run() async throws {
    let clients = self.clients, log = self.log, counted = self.clientCountChanged
    try await server.run { client in
      let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(Self.clientBacklog))
      clients.withLock {
        $0[client.number] = continuation
        counted($0.count)
      }
      log("NMEA client \(client.number) connected")
      defer {
        clients.withLock {
          if $0.removeValue(forKey: client.number) != nil { counted($0.count) }
        }
        log("NMEA client \(client.number) left")
      }
      // The stream ends when the client is dropped; a send stuck on a client that stopped
      // reading is cancelled with it.
      let (ended, end) = AsyncStream.makeStream(of: Void.self)
      continuation.onTermination = { _ in end.finish() }
      try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask {
          for await text in stream { try await client.send(text) }
        }
        group.addTask { for await _ in ended {} }
        try await group.next()
        group.cancelAll()
      }
    }
  }
}
