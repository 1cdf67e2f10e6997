import Geo
import LocationModel
import Hummingbird
import NIOCore

/// Reads request bodies within the server's bounds: a size per request (413, at once when
/// `Content-Length` says so, else as soon as the bytes go over), a time for the whole body to
/// arrive (408: a client that sends slowly, or stops, does not hold the handler), and the bytes
/// held at once across all requests (429: a thousand bodies at their limit are not held together).
struct BodyReader: Sendable {
  let timeout: Duration
  let budget: ByteBudget

  /// The whole body, up to `limit` bytes.
  func collect(_ request: Request, upTo limit: Int) async throws(PhoneServer.APIError) -> [UInt8] {
    if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
      throw .tooLarge(limit)
    }
    let reservation = ByteBudget.Reservation(budget)
    defer { reservation.release() }
    let body = request.body, timeout = self.timeout
    do {
      return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
        group.addTask {
          var bytes: [UInt8] = []
          for try await chunk in body {
            guard bytes.count + chunk.readableBytes <= limit else { throw PhoneServer.APIError.tooLarge(limit) }
            guard reservation.take(chunk.readableBytes) else {
              throw PhoneServer.APIError.busy("the server is receiving too much at once; try again shortly")
            }
            bytes.append(contentsOf: chunk.readableBytesView)
          }
          return bytes
        }
        group.addTask {
          try await Task.sleep(for: timeout)
          return nil
        }
        defer { group.cancelAll() }
        guard let bytes = try await group.next()! else { throw PhoneServer.APIError.timeout(timeout) }
        return bytes
      }
    } catch let error as PhoneServer.APIError {
      throw error
    } catch {
      throw .bad("the body could not be read: \(error)")
    }
  }
}

/// Bytes that may be held at once by the requests being received.
final class ByteBudget: Sendable {
  let limit: Int
  private let used = Locked(0)

  init(limit: Int) { self.limit = limit }

  /// Bytes held now.
  var inUse: Int { used.withLock { $0 } }

  /// What one request holds of the budget, given back when it is done.
  final class Reservation: Sendable {
    private let budget: ByteBudget
    private let held = Locked(0)

    init(_ budget: ByteBudget) { self.budget = budget }

    /// Takes `n` more bytes; false (taking none) when the budget has not that many left.
    func take(_ n: Int) -> Bool {
      let granted = budget.used.withLock { used -> Bool in
        guard used + n <= budget.limit else { return false }
        used += n
        return true
      }
      if granted { held.withLock { $0 += n } }
      return granted
    }

    /// Gives back everything taken (once; later calls give back nothing).
    func release() {
      let n = held.withLock { held -> Int in
        defer { held = 0 }
        return held
      }
      budget.used.withLock { $0 -= n }
    }
  }
}
