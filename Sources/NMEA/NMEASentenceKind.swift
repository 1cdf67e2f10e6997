/// The standard sentences the decoder types: the one table that the decoder's dispatch,
/// ``NMEAMessage``, the epoch assembler and the trace recorder read.
///
/// A new sentence starts here: its case, its three letters in `mnemonic`, its line in
/// `init(code:)` and its tag in `cycleTag`. The compiler then names every switch that must handle
/// it: each switch over the kinds, and over ``NMEAMessage`` (whose case `NMEAMessage.decode(_:)`
/// must build), has no `default`. Proprietary `$P…` sentences are not kinds: they are read into
/// gpsd's fix only, in `Sentences/Proprietary.swift`.
package enum NMEASentenceKind: CaseIterable, Sendable {
  case gga, rmc, gll, gns, gsa, gsv, vtg, zda, gst

  /// The three letters after the talker, as `GGA`.
  @inline(__always)
  var mnemonic: StaticString {
    switch self {
    case .gga: "GGA"
    case .rmc: "RMC"
    case .gll: "GLL"
    case .gns: "GNS"
    case .gsa: "GSA"
    case .gsv: "GSV"
    case .vtg: "VTG"
    case .zda: "ZDA"
    case .gst: "GST"
    }
  }

  /// The three letters as a string: a typed sentence's ``NMEAMessage/type``.
  package var type: String { mnemonic.description }

  /// The three letters packed big-endian, as `SentenceFrame.typeCode` packs a sentence's: for a
  /// kind known where it is read, a constant the optimiser folds (`typeCode(_:)` of a literal),
  /// so that the decoder's dispatch compares with immediates, as it did with `typeCode("GGA")`.
  @inline(__always)
  var code: UInt32 { typeCode(mnemonic) }

  /// The kind of a sentence from its `SentenceFrame.typeCode`; nil for a type that is not typed
  /// (and for 0, a proprietary or odd address). The decoder's hot path: one comparison with a
  /// constant per kind, in the order the decoder always tried them. Its `default` cannot be
  /// avoided (the codes are numbers); `FieldParsingTests` checks that every kind comes back.
  @inline(__always)
  init?(code: UInt32) {
    switch code {
    case NMEASentenceKind.gga.code: self = .gga
    case NMEASentenceKind.rmc.code: self = .rmc
    case NMEASentenceKind.gsa.code: self = .gsa
    case NMEASentenceKind.gsv.code: self = .gsv
    case NMEASentenceKind.vtg.code: self = .vtg
    case NMEASentenceKind.gll.code: self = .gll
    case NMEASentenceKind.gns.code: self = .gns
    case NMEASentenceKind.zda.code: self = .zda
    case NMEASentenceKind.gst.code: self = .gst
    default: return nil
    }
  }

  /// How gpsd's cycle detector tags the kind: a tag of its own when gpsd takes the sentence's
  /// time as the current time (with a time, and for RMC and ZDA a date), which can then end its
  /// reporting cycle; `.other` for the rest (GST's time refers to an earlier fix). A constant
  /// where the kind is known, as in the assembler's `add` overloads.
  @inline(__always)
  var cycleTag: GPSDCycleDetector.Tag {
    switch self {
    case .gga: .gga
    case .rmc: .rmc
    case .gll: .gll
    case .gns: .gns
    case .zda: .zda
    case .gsa, .gsv, .vtg, .gst: .other
    }
  }

  /// Whether gpsd takes the sentence's time, when it has one, as the receiver's current time
  /// (`cycleTag`): GGA, RMC, GLL, GNS and ZDA; not GST.
  package var latchesTime: Bool { cycleTag != .other }
}
