/// The screens the home flow shows.
enum HomeScreen {
  case landingPage(LandingPageViewModel)
  case fullscreenMap(FullscreenMapViewModel)
}

/// A navigation stack (UIKit's UINavigationController in the app; the app adapts it).
@MainActor
protocol NavigationControllerProtocol: AnyObject {
  func push(_ screen: HomeScreen, animated: Bool)
  func pop(animated: Bool)
}

/// The home flow: the landing page, and the fullscreen map pushed on a tap of its preview, with
/// the user's location passed along (no second fetch); a rapid second tap opens nothing.
@MainActor
final class HomeCoordinator {
  private let navigationController: any NavigationControllerProtocol
  private(set) var isShowingFullscreenMap = false

  init(navigationController: any NavigationControllerProtocol) {
    self.navigationController = navigationController
  }

  func start(with landingPage: LandingPageViewModel) {
    landingPage.onMapPreviewTapped = { [weak self] location in self?.showFullscreenMap(userLocation: location) }
    navigationController.push(.landingPage(landingPage), animated: false)
  }

  func showFullscreenMap(userLocation: Coordinate) {
    guard !isShowingFullscreenMap else { return }
    isShowingFullscreenMap = true
    navigationController.push(.fullscreenMap(FullscreenMapViewModel(userLocation: userLocation)), animated: true)
  }

  /// The back button, or the edge swipe, closed the fullscreen map.
  func fullscreenMapDidClose() {
    isShowingFullscreenMap = false
  }

  func closeFullscreenMap() {
    guard isShowingFullscreenMap else { return }
    navigationController.pop(animated: true)
    fullscreenMapDidClose()
  }
}
