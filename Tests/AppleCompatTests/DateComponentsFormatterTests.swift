import AppleCompat
import Foundation
import Testing

/// Apple's output for en_US, as its documentation and a Mac print it.
struct DateComponentsFormatterTests {
  private func formatter(
    _ style: DateComponentsFormatter.UnitsStyle, _ units: NSCalendar.Unit = [.hour, .minute, .second]
  ) -> DateComponentsFormatter {
    let formatter = DateComponentsFormatter()
    formatter.unitsStyle = style
    formatter.allowedUnits = units
    return formatter
  }

  @Test func positionalDropsLeadingZerosAndPadsTheRest() {
    let f = formatter(.positional)
    #expect(f.string(from: 3_700) == "1:01:40")
    #expect(f.string(from: 65) == "1:05")
    #expect(f.string(from: 5) == "0:05")
    #expect(formatter(.positional, [.minute, .second]).string(from: 3_700) == "61:40")
  }

  @Test func padWritesEveryUnitWithTwoDigits() {
    let f = formatter(.positional)
    f.zeroFormattingBehavior = .pad
    #expect(f.string(from: 65) == "00:01:05")
  }

  @Test(arguments: [
    (DateComponentsFormatter.UnitsStyle.abbreviated, "1h 1m 40s"), (.short, "1 hr, 1 min, 40 sec"),
    (.full, "1 hour, 1 minute, 40 seconds"), (.spellOut, "one hour, one minute, forty seconds"), (.brief, "1hr 1min 40sec"),
  ])
  func stylesWriteUnitsInWords(style: DateComponentsFormatter.UnitsStyle, expected: String) {
    #expect(formatter(style).string(from: 3_700) == expected)
  }

  @Test func zeroUnitsAreDroppedOutsidePositional() {
    #expect(formatter(.abbreviated).string(from: 3_605) == "1h 5s")
    #expect(formatter(.full).string(from: 7_200) == "2 hours")
    #expect(formatter(.abbreviated).string(from: 0) == "0s")
  }

  @Test func maximumUnitCountAndPhrases() {
    let f = formatter(.full)
    f.maximumUnitCount = 1
    f.includesApproximationPhrase = true
    f.includesTimeRemainingPhrase = true
    #expect(f.string(from: 3_700) == "About 1 hour remaining")
  }

  @Test func daysAndComponentsAndDates() {
    let f = formatter(.abbreviated, [.day, .hour, .minute])
    #expect(f.string(from: 90_000) == "1d 1h")
    #expect(f.string(from: DateComponents(hour: 2, minute: 30)) == "2h 30m")
    let start = Date(timeIntervalSince1970: 0)
    #expect(f.string(from: start, to: start.addingTimeInterval(600)) == "10m")
    #expect(f.string(for: 120.0) == "2m")
    #expect(f.string(for: "no") == nil)
    #expect(DateComponentsFormatter.localizedString(from: DateComponents(minute: 5), unitsStyle: .full) == "5 minutes")
  }

  @Test func spelledNumbers() {
    let f = formatter(.spellOut, [.minute, .second])
    #expect(f.string(from: 42 * 60) == "forty-two minutes")
    #expect(f.string(from: 1_200 * 60 + 1) == "one thousand two hundred minutes, one second")
  }

  @Test func rawValuesAreApples() {
    #expect(DateComponentsFormatter.UnitsStyle.positional.rawValue == 0)
    #expect(DateComponentsFormatter.UnitsStyle.brief.rawValue == 5)
    #expect(DateComponentsFormatter.ZeroFormattingBehavior.pad.rawValue == 65_536)
    #expect(DateComponentsFormatter.ZeroFormattingBehavior.dropAll.rawValue == 14)
  }
}

struct DarwinTimeConstantsTests {
  @Test func constantsHaveDarwinsValuesAndType() {
    let values: [UInt64] = [NSEC_PER_SEC, NSEC_PER_MSEC, NSEC_PER_USEC, USEC_PER_SEC]
    #expect(values == [1_000_000_000, 1_000_000, 1_000, 1_000_000])
    #expect(Int(2 * NSEC_PER_SEC) == 2_000_000_000)
  }
}

struct NotificationsTests {
  @Test func aSequenceSeesWhatIsPostedAfterItWasMadeInOrder() async {
    let center = NotificationCenter()
    let name = Notification.Name("Test.changed")
    let notifications = center.notifications(named: name)
    // Posted before the first next(): kept.
    center.post(name: name, object: nil, userInfo: ["n": 1])
    center.post(name: Notification.Name("Test.other"), object: nil)
    center.post(name: name, object: nil, userInfo: ["n": 2])
    var seen: [Int] = []
    for await notification in notifications {
      seen.append(notification.userInfo?["n"] as? Int ?? -1)
      if seen.count == 2 { break }
    }
    #expect(seen == [1, 2])
  }

  @Test func cancellingTheIteratingTaskEndsTheLoop() async {
    let center = NotificationCenter()
    let name = Notification.Name("Test.never")
    let task = Task {
      var count = 0
      for await _ in center.notifications(named: name) { count += 1 }
      return count
    }
    task.cancel()
    #expect(await task.value == 0)
  }

  @Test func theObserverGoesWithTheSequence() async {
    let center = NotificationCenter()
    let name = Notification.Name("Test.gone")
    weak var weakSequence: NotificationCenter.Notifications?
    do {
      let sequence = center.notifications(named: name)
      weakSequence = sequence
      center.post(name: name, object: nil)
    }
    #expect(weakSequence == nil)
    // Posting with no observer left is harmless.
    center.post(name: name, object: nil)
  }
}
