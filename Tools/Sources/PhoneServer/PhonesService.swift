import ServiceLifecycle

/// A ``PhoneHub``'s phones as a service of the server's `ServiceGroup`: while it runs, every
/// event stream gets a keep-alive comment each `keepAliveInterval` (on real time: a network
/// matter, not the phones'), so a client that went away is noticed while its phone is quiet;
/// on graceful shutdown or cancellation it stops every phone, which ends their event streams.
struct PhonesService: Service {
  let hub: PhoneHub
  let keepAliveInterval: Duration

  func run() async {
    let hub = self.hub, interval = keepAliveInterval
    await cancelWhenGracefulShutdown {
      while (try? await Task.sleep(for: interval)) != nil {
        for phone in hub.phones { phone.keepAlive() }
      }
    }
    await hub.shutdown()
  }
}
