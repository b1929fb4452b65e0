// The floor of any Swift command: a binary that links Foundation (statically, with the Swift
// runtime, as the release build of morningproof does) and does next to nothing.
import Foundation

print(ProcessInfo.processInfo.arguments.count > 1 ? "hello, \(ProcessInfo.processInfo.arguments[1])" : "hello")
