import XCTest

import AlmanacTests

var tests = [XCTestCaseEntry]()
tests += AlmanacTests.allTests()
XCTMain(tests)
