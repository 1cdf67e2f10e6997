/// LocationEmulator as a release: the one place its version is written.
///
/// `locemu --version` prints it, the HTTP API's description (`openapi.yaml`) and the newest
/// release of `CHANGELOG.md` carry it, and a test keeps the three equal. The products that are
/// API, to which semantic versioning applies, are listed in `docs/PublicAPI.md`.
public enum LocationEmulator {
  /// The version of this release, `MAJOR.MINOR.PATCH`.
  public static let version = "0.1.0"
}
