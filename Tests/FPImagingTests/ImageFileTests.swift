import FPImaging
import Foundation
import Testing
import TestSupport

struct ImageFileTests {
    let directory = TemporaryDirectory()
    let image = GreyImage(width: 3, height: 2, pixels: [0, 1, 127, 128, 254, 255])!

    @Test(arguments: ["pgm", "png", "PNG"])
    func writtenImagesReadBackPixelForPixel(format: String) throws {
        let path = directory.file("image.\(format)")
        try ImageFile.write(image, to: path)
        #expect(try ImageFile.read(path) == image)
    }

    @Test func theExtensionPicksTheFormat() throws {
        #expect(throws: ImageFileError.unsupportedFormat(path: "out.jpg")) { try ImageFormat(path: "out.jpg") }
        #expect(throws: ImageFileError.self) { try ImageFormat(path: "dir.png/out") }
        #expect(try ImageFormat(path: "a/b.c/out.Png") == .png)
    }

    @Test func aTruncatedPGMIsNamedNotCrashed() throws {
        let path = directory.file("short.pgm")
        try Data("P5\n10 10\n255\n".utf8 + [1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect {
            try ImageFile.read(path)
        } throws: { error in
            "\(error)".contains(path) && "\(error)".contains("10x10")
        }
    }

    @Test func aCorruptPNGIsNamedNotCrashed() throws {
        let path = directory.file("bad.png")
        try Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]).write(to: URL(fileURLWithPath: path))
        #expect {
            try ImageFile.read(path)
        } throws: { error in
            "\(error)".contains(path)
        }
    }

    @Test(.enabled(if: SharedData.available, "needs ../shared/prints"))
    func theSharedPrintsReadAsGreyImages() throws {
        let whorl = try ImageFile.read(SharedData.print("whorl"))
        #expect(whorl.width > 0 && whorl.pixels.count == whorl.width * whorl.height)
    }
}

/// An image file is replaced whole: through a temporary file beside it that no earlier run can block.
struct ImageReplacementTests {
    let directory = TemporaryDirectory()
    let image = GreyImage(width: 2, height: 2, pixels: [9, 8, 7, 6])!

    @Test func aTemporaryFileLeftByAKilledRunNeverBlocksTheNextWrite() throws {
        let path = directory.file("capture.pgm")
        // What a run killed mid-write leaves, named as a run with this pid would name it
        // (PID 1 in every container run): the next write goes on and leaves it alone.
        let leftover = path + ".partial-\(getpid())"
        try "half an image".write(toFile: leftover, atomically: false, encoding: .utf8)
        try ImageFile.write(image, to: path)
        try ImageFile.write(image, to: path)
        #expect(try ImageFile.read(path) == image)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        #expect(names == ["capture.pgm", "capture.pgm.partial-\(getpid())"], "no temporary file of ours is left: \(names)")
    }
}
