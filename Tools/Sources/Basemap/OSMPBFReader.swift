import CZlib
import Foundation
import SwiftProtobuf

/// Why an OpenStreetMap PBF file cannot be read, with where.
public struct OSMPBFError: Error, Sendable, Hashable, CustomStringConvertible {
  public var path: String
  public var message: String

  public init(path: String, message: String) {
    self.path = path
    self.message = message
  }

  public var description: String { "\(path): \(message)" }
}

/// Reads an OpenStreetMap extract in the PBF format block by block (a 4-byte length, a
/// `BlobHeader`, its `Blob`, raw or zlib-compressed), decoding each with the generated
/// SwiftProtobuf messages. Memory is one block at a time (at most 32 MB by the format's rules).
final class OSMPBFReader {
  enum Block {
    case header(OSMPBF_HeaderBlock)
    case data(OSMPBF_PrimitiveBlock)
  }

  /// The features this reader understands; a file that requires others is refused.
  static let supportedFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]

  let path: String
  private let file: FileHandle
  /// The bytes read so far.
  private(set) var offset: UInt64 = 0
  private var blocks = 0

  init(path: String) throws {
    self.path = path
    guard let file = FileHandle(forReadingAtPath: path) else {
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory)
      throw OSMPBFError(path: path, message: exists ? (isDirectory.boolValue ? "is a directory" : "cannot be read") : "no such file")
    }
    self.file = file
  }

  deinit { try? file.close() }

  private func read(_ count: Int, _ what: String) throws -> Data? {
    guard count > 0 else { return Data() }
    let data = (try? file.read(upToCount: count)) ?? nil
    guard let data, !data.isEmpty else { return nil }
    guard data.count == count else {
      throw OSMPBFError(path: path, message: "truncated: \(what) at byte \(offset) has \(data.count) of \(count) bytes")
    }
    offset += UInt64(count)
    return data
  }

  /// The next block; nil at the end of the file.
  func next() throws -> Block? {
    guard let lengthBytes = try read(4, "a block's length") else {
      if blocks == 0 { throw OSMPBFError(path: path, message: "empty: not an OpenStreetMap PBF file") }
      return nil
    }
    let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
    guard length > 0, length <= 64 * 1024 else { throw notPBF("a block header of \(length) bytes") }
    guard let headerBytes = try read(length, "a block header") else { throw notPBF("no block header") }
    let header: OSMPBF_BlobHeader
    do {
      header = try OSMPBF_BlobHeader(serializedBytes: headerBytes)
    } catch {
      throw notPBF("a block header that does not decode")
    }
    guard header.datasize > 0, header.datasize <= 32 * 1024 * 1024 else { throw notPBF("a block of \(header.datasize) bytes") }
    guard let blobBytes = try read(Int(header.datasize), "a block") else {
      throw OSMPBFError(path: path, message: "truncated: a block at byte \(offset) is missing")
    }
    let blob: OSMPBF_Blob
    do {
      blob = try OSMPBF_Blob(serializedBytes: blobBytes)
    } catch {
      throw OSMPBFError(path: path, message: "block \(blocks + 1) does not decode")
    }
    let payload = try content(of: blob)
    blocks += 1
    do {
      switch header.type {
      case "OSMHeader":
        let block = try OSMPBF_HeaderBlock(serializedBytes: payload)
        let unsupported = Set(block.requiredFeatures).subtracting(Self.supportedFeatures)
        guard unsupported.isEmpty else {
          throw OSMPBFError(path: path, message: "needs features this reader lacks: \(unsupported.sorted().joined(separator: ", "))")
        }
        return .header(block)
      case "OSMData":
        guard blocks > 1 else { throw notPBF("data before the header") }
        return .data(try OSMPBF_PrimitiveBlock(serializedBytes: payload))
      default:
        // Unknown block types are skipped, as the format says.
        return try next()
      }
    } catch let error as OSMPBFError {
      throw error
    } catch {
      throw OSMPBFError(path: path, message: "block \(blocks) (\(header.type)) does not decode: \(error)")
    }
  }

  private func notPBF(_ what: String) -> OSMPBFError {
    OSMPBFError(
      path: path,
      message: blocks == 0 ? "not an OpenStreetMap PBF file (\(what) at the start)" : "corrupt at byte \(offset): \(what)")
  }

  /// The blob's bytes, inflated when zlib-compressed.
  private func content(of blob: OSMPBF_Blob) throws -> Data {
    switch blob.data {
    case .raw(let raw): return raw
    case .zlibData(let compressed):
      let size = Int(blob.rawSize)
      guard size > 0, size <= 32 * 1024 * 1024 else {
        throw OSMPBFError(path: path, message: "block \(blocks + 1): a compressed size of \(size) bytes")
      }
      var output = Data(count: size)
      var outputLength = uLongf(size)
      let status = output.withUnsafeMutableBytes { out in
        compressed.withUnsafeBytes { input in
          uncompress(
            out.baseAddress!.assumingMemoryBound(to: Bytef.self), &outputLength,
            input.baseAddress!.assumingMemoryBound(to: Bytef.self), uLong(compressed.count))
        }
      }
      guard status == Z_OK, Int(outputLength) == size else {
        throw OSMPBFError(path: path, message: "block \(blocks + 1): zlib data does not inflate (status \(status))")
      }
      return output
    case .lzmaData, .obsoleteBzip2Data, .lz4Data, .zstdData:
      throw OSMPBFError(path: path, message: "block \(blocks + 1) uses a compression this reader lacks (only raw and zlib)")
    case nil:
      throw OSMPBFError(path: path, message: "block \(blocks + 1) is empty")
    }
  }
}
