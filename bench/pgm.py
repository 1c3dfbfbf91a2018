"""Binary (P5) PGM images, as libfprint's virtual_image reader takes them: read by bench/kiosk.py
and by the GNOME Settings check (Tests/Helpers/gnome_settings/reader.py)."""


def read_pgm(path):
    """Width, height and the pixels (8 bits each, row by row) of a binary PGM file."""
    with open(path, "rb") as file:
        data = file.read()
    fields, index = [], 0
    while len(fields) < 4:
        while data[index:index + 1].isspace():
            index += 1
        if data[index:index + 1] == b"#":
            index = data.index(b"\n", index)
            continue
        end = index
        while not data[end:end + 1].isspace():
            end += 1
        fields.append(data[index:end])
        index = end
    if fields[0] != b"P5":
        raise ValueError(f"{path} is not a binary PGM (P5)")
    width, height = int(fields[1]), int(fields[2])
    return width, height, data[index + 1:index + 1 + width * height]
