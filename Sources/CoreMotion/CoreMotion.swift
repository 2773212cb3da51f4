// Apple's CoreMotion module re-exports Foundation (`OperationQueue`, `TimeInterval`, `NSError`, …), so code
// that only says `import CoreMotion` compiles. This module does the same.
@_exported import Foundation
