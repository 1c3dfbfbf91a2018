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
