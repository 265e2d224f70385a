import Foundation

/// `relative-queue BRIGHTNESS STEP_NS…`: the original torch app's model, a serial
/// OperationQueue whose operations switch the LED (open, write, close) and then sleep for the
/// step's duration: relative sleeps, so every write's and wake-up's lateness adds up.
func runRelativeQueue(_ arguments: [String]) {
  guard let path = arguments.first else { exit(64) }
  let queue = OperationQueue()
  queue.maxConcurrentOperationCount = 1
  @Sendable func set(_ value: String) {
    try? value.write(toFile: path, atomically: false, encoding: .utf8)
  }
  for (index, step) in arguments.dropFirst().enumerated() {
    let nanoseconds = Double(step) ?? 0
    queue.addOperation {
      set(index % 2 == 0 ? "255\n" : "0\n")
      Thread.sleep(forTimeInterval: nanoseconds / 1_000_000_000)
    }
  }
  queue.addOperation { set("0\n") }
  queue.waitUntilAllOperationsAreFinished()
}
