import Foundation
import Geo
import NIOCore
import NIOPosix

/// A TCP server that sends the same text to every connected client, as a GPS receiver on a
/// network port does (what `gpsd tcp://HOST:PORT` reads). Clients send nothing that matters:
/// what they send is read and dropped.
///
/// A client that stops reading is closed once its unsent output passes
/// ``clientBacklogBytes``, so it never slows the others or grows the server's memory.
public final class NMEABroadcaster: Sendable {
  /// Bytes a client may have unsent before it is dropped (about a minute of a receiver's output).
  public static let clientBacklogBytes = 64 * 1024

  /// The port listened on (the kernel's choice when asked for port 0).
  public let port: Int
  private let server: any Channel
  private let clients: Locked<(next: Int, channels: [Int: any Channel])>
  private let log: @Sendable (String) -> Void

  private init(server: any Channel, clients: Locked<(next: Int, channels: [Int: any Channel])>, log: @escaping @Sendable (String) -> Void) {
    self.server = server
    self.clients = clients
    self.log = log
    port = server.localAddress?.port ?? 0
  }

  /// Binds `host:port` and accepts clients from now on.
  /// - Throws: ``PhoneServerError`` when the address cannot be bound.
  public static func start(host: String, port: Int, log: @escaping @Sendable (String) -> Void = { _ in }) async throws
    -> NMEABroadcaster
  {
    let clients = Locked<(next: Int, channels: [Int: any Channel])>((1, [:]))
    let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .childChannelOption(
        .writeBufferWaterMark, value: .init(low: clientBacklogBytes / 2, high: clientBacklogBytes))
      .childChannelInitializer { channel in
        let id = clients.withLock { c -> Int in
          defer { c.next += 1 }
          c.channels[c.next] = channel
          return c.next
        }
        log("NMEA client \(id) connected")
        channel.closeFuture.whenComplete { _ in
          clients.withLock { _ = $0.channels.removeValue(forKey: id) }
          log("NMEA client \(id) left")
        }
        return channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(DiscardInput())
        }
      }
    do {
      let server = try await bootstrap.bind(host: host, port: port).get()
      return NMEABroadcaster(server: server, clients: clients, log: log)
    } catch let error as IOError {
      throw PhoneServerError(description: "cannot listen on \(host):\(port): \(String(cString: strerror(error.errnoCode)))")
    } catch {
      throw PhoneServerError(description: "cannot listen on \(host):\(port): \(error)")
    }
  }

  /// Clients connected now.
  public var clientCount: Int { clients.withLock { $0.channels.count } }

  /// Sends `text` to every client; a client that has stopped reading is closed instead.
  public func send(_ text: String) {
    let channels = clients.withLock { Array($0.channels) }
    for (id, channel) in channels {
      guard channel.isWritable else {
        log("NMEA client \(id) stopped reading: dropped")
        channel.close(promise: nil)
        continue
      }
      channel.writeAndFlush(ByteBuffer(string: text), promise: nil)
    }
  }

  /// Stops accepting and closes every client.
  public func stop() async {
    try? await server.close()
    let channels = clients.withLock { Array($0.channels.values) }
    for channel in channels { try? await channel.close() }
  }
}

/// Reads what a client sends (gpsd sends nothing, `nc` may) and drops it.
private final class DiscardInput: ChannelInboundHandler, Sendable {
  typealias InboundIn = ByteBuffer

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
