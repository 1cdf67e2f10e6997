import ServiceLifecycle

/// A ``PhoneHub``'s phones as a service of the server's `ServiceGroup`: it runs each phone the
/// hub makes as a child task of its own (``ServedPhone/run()``), and while it runs every event
/// stream gets a keep-alive comment each `keepAliveInterval` (on real time: a network matter,
/// not the phones'), so a client that went away is noticed while its phone is quiet. On
/// graceful shutdown it stops every phone, which ends their runs and event streams, and returns
/// once they have ended; on cancellation the runs end with it.
struct PhonesService: Service {
  let hub: PhoneHub
  let keepAliveInterval: Duration

  func run() async {
    let hub = self.hub, interval = keepAliveInterval
    await withDiscardingTaskGroup { group in
      group.addTask {
        await cancelWhenGracefulShutdown {
          while (try? await Task.sleep(for: interval)) != nil {
            for phone in hub.phones { phone.keepAlive() }
          }
        }
      }
      await withGracefulShutdownHandler {
        for await phone in hub.phonesToRun { group.addTask { await phone.run() } }
      } onGracefulShutdown: {
        hub.finishRunning()
      }
      await hub.shutdown()
    }
  }
}
