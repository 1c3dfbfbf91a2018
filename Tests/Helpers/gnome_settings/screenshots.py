"""Screenshots of the virtual screen, from the framebuffer file Xvfb keeps with `-fbdir`
(an XWD image, kept current by the server), written as PNG with nothing but the standard library:
no screenshot tool to install in CI."""

import struct
import zlib


class Frame:
    """One screen's pixels, RGB, row by row."""

    def __init__(self, width, height, rows):
        self.width, self.height, self.rows = width, height, rows

    def pixel(self, x, y):
        row = self.rows[y]
        return row[3 * x], row[3 * x + 1], row[3 * x + 2]

    def count(self, box, predicate):
        """How many pixels inside box (x, y, width, height) satisfy predicate(r, g, b)."""
        x0, y0, width, height = box
        total = 0
        for y in range(max(0, y0), min(self.height, y0 + height)):
            row = self.rows[y]
            for x in range(max(0, x0), min(self.width, x0 + width)):
                if predicate(row[3 * x], row[3 * x + 1], row[3 * x + 2]):
                    total += 1
        return total

    def save_png(self, path):
        raw = b''.join(b'\0' + row for row in self.rows)

        def chunk(kind, body):
            return struct.pack('>I', len(body)) + kind + body + struct.pack('>I', zlib.crc32(kind + body))

        header = struct.pack('>IIBBBBB', self.width, self.height, 8, 2, 0, 0, 0)
        with open(path, 'wb') as file:
            file.write(b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', header) + chunk(b'IDAT', zlib.compress(raw, 6))
                       + chunk(b'IEND', b''))


def read_xwd(path):
    """The screen as Xvfb's framebuffer file holds it (24-bit depth, 32 bits a pixel)."""
    with open(path, 'rb') as file:
        data = file.read()
    for order in ('>', '<'):
        fields = struct.unpack(order + '25I', data[:100])
        if fields[1] == 7:  # XWD file version 7
            break
    else:
        raise ValueError(f'{path} is not an XWD file')
    header_size, width, height, byte_order, bits_per_pixel, bytes_per_line = (
        fields[0], fields[4], fields[5], fields[7], fields[11], fields[12])
    if bits_per_pixel != 32:
        raise ValueError(f'{path}: {bits_per_pixel} bits a pixel, expected 32 (Xvfb -screen 0 WxHx24)')
    start = header_size + fields[19] * 12  # the colour map's entries come before the pixels
    rows = []
    for y in range(height):
        line = data[start + y * bytes_per_line:start + y * bytes_per_line + width * 4]
        rgb = bytearray(width * 3)
        if byte_order == 0:  # least significant byte first: B G R x
            rgb[0::3], rgb[1::3], rgb[2::3] = line[2::4], line[1::4], line[0::4]
        else:
            rgb[0::3], rgb[1::3], rgb[2::3] = line[1::4], line[2::4], line[3::4]
        rows.append(bytes(rgb))
    return Frame(width, height, rows)
