import Foundation
package import GNSSReceiver
import Geo
import LocationModel
import NIOCore
import NIOPosix
import NMEA
import ServiceLifecycle
package import Traces

/// A TCP port that talks NMEA as a GPS receiver on a network does (what `gpsd tcp://HOST:PORT`
/// reads), on NIO: the one implementation behind `locemu feed` (each client gets a trace
/// replayed from its start, ``NMEATraceFeed``) and `locemu serve --nmea-listen` (every client
/// gets the same live epochs, ``NMEABroadcaster``).
///
/// Binding happens at once (the port is known and taken on return); ``run(_:)`` accepts
/// clients until it is cancelled, each served by the handler in a child task, and closes
/// every client and the port when it ends. What clients send is read and dropped.
package final class NMEATCPServer: Sendable {
  /// The port listened on (the kernel's choice when asked for port 0).
  package let port: Int
  private let channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>

  private init(channel: NIOAsyncChannel<NIOAsyncChannel<ByteBuffer, ByteBuffer>, Never>) {
    self.channel = channel
    port = channel.channel.localAddress?.port ?? 0
  }

  /// Binds `host:port`.
  /// - Throws: ``PhoneServerError`` when the address cannot be bound.
  package static func bind(host: String, port: Int) async throws -> NMEATCPServer {
    do {
      let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
        .bind(host: host, port: port) { child in
          child.eventLoop.makeCompletedFuture {
            try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: child)
          }
        }
      return NMEATCPServer(channel: channel)
    } catch let error as IOError {
      throw PhoneServerError(description: "cannot listen on \(host):\(port): \(String(cString: strerror(error.errnoCode)))")
    } catch {
      throw PhoneServerError(description: "cannot listen on \(host):\(port): \(error)")
    }
  }

  /// One client: its number, and what to send it.
  package struct Client: Sendable {
    package let number: Int
    let outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>

    /// Sends `text`, waiting while the client is slow to read.
    /// - Throws: when the client went away.
    package func send(_ text: String) async throws { try await outbound.write(ByteBuffer(string: text)) }
  }

  /// Accepts clients until cancelled (or, with `once`, serves the first one and returns);
  /// `serve` runs for each, and the client is closed when it returns or throws.
  package func run(once: Bool = false, _ serve: @escaping @Sendable (Client) async throws -> Void) async throws {
    let numbers = Locked(0)
    try await channel.executeThenClose { inbound in
      try await withThrowingDiscardingTaskGroup { group in
        for try await connection in inbound {
          let number = numbers.withLock { n -> Int in
            n += 1
            return n
          }
          let task: @Sendable @concurrent () async -> Void = {
            try? await connection.executeThenClose { input, output in
              try await withThrowingTaskGroup(of: Void.self) { reading in
                // Read and dropped, so that a talkative client does not fill its socket.
                reading.addTask { for try await _ in input {} }
                try await serve(Client(number: number, outbound: output))
                reading.cancelAll()
              }
            }
          }
          if once {
            await task()
            return
          }
          group.addTask(operation: task)
        }
      }
    }
  }
}

/// `locemu feed`: every client gets the whole trace from its start, paced by its time stamps,
/// on its own schedule, until the trace ends or the client goes away.
///
/// NMEA logs are sent as recorded (each epoch's own sentences); GPX traces, fix records and the
/// no-fix epochs filled into gaps are sent as generated GGA + RMC. With ``receiver``, the trace is
/// the truth and each client gets a seeded realistic receiver's epochs over it (GGA, GSA, GSV,
/// GST, RMC, VTG, GBS), the same bytes for every client. `gpsd -N -n -S PORT
/// tcp://HOST:FEEDPORT` reads it, so any gpsd client sees the trace.
package struct NMEATraceFeed: Service {
  package let server: NMEATCPServer
  package let trace: Trace
  package let options: ReplayOptions
  /// Serve the first client, then end.
  package var once = false
  /// A realistic receiver over the trace (nil: the trace as recorded).
  package var receiver: GNSSReceiver.Options?
  /// Told of connections, departures and errors (one line each).
  package var log: @Sendable (String) -> Void

  package init(server: NMEATCPServer, trace: Trace, options: ReplayOptions, log: @escaping @Sendable (String) -> Void = { _ in }) {
    var trace = trace
    trace.keepSentences = true
    self.server = server
    self.trace = trace
    self.options = options
    self.log = log
  }

  /// Serves clients until cancelled (or graceful shutdown), or the first client is done with `once`.
  package func run() async throws {
    let (trace, options, log) = (trace, options, log)
    try await cancelWhenGracefulShutdown { [server, once, receiver] in
      try await server.run(once: once) { client in
        log("client \(client.number) connected")
        let replay = TraceReplay(trace: trace, options: options, clock: ContinuousClock())
        var epochs = 0
        // Each client's receiver starts with its trace: every client gets the same epochs.
        var measuring = receiver.map(GNSSReceiver.init(options:))
        do {
          for try await replayed in replay {
            var lines: [String]
            if measuring != nil {
              lines = measuring!.measure(replayed.fix).nmeaSentences
            } else {
              lines = replayed.epoch.sentences
              if lines.isEmpty { lines = NMEAWriter.sentences(for: replayed.fix, receiver: replayed.epoch.receiver) }
            }
            try await client.send(lines.map { $0 + "\r\n" }.joined())
            epochs += 1
          }
          log("client \(client.number): trace ended after \(epochs) epochs")
        } catch is CancellationError {
        } catch {
          log("client \(client.number) went away after \(epochs) epochs")
        }
      }
    }
  }
}
