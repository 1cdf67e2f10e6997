/// How the scripted user answers the permission prompt.
public enum PromptAnswer: String, Sendable, Hashable, CaseIterable, Codable {
  /// "Allow While Using App": when-in-use, kept (from the prompt of a request for Always: a
  /// provisional Always).
  case allowWhileUsing
  /// "Allow Once": when-in-use until the app goes to the background, then back to not determined.
  case allowOnce
  /// "Don't Allow".
  case deny
  /// The user never answers: the request waits until the status changes some other way.
  case none
  /// "Change to Always Allow" on the prompt to upgrade to Always; on a first prompt, which has
  /// no such option, it is "Allow While Using App".
  case allowAlways
}
