"""Write ui/static/favicon.png, the dashboard's page icon (app.py's ``page_icon``).

The icon ships with the app so that no page load asks a font host for it
(issue 18).  It is drawn here with Pillow: a ROC curve above the chance
diagonal, in the Okabe-Ito blue of the charts, on a white rounded square.
Run ``python ui/static/make_favicon.py`` to redraw it.
"""
from pathlib import Path

from PIL import Image, ImageDraw

SIZE, SCALE = 64, 4  # drawn 4x larger, then downsampled (smooth lines)
BLUE, GREY = (0, 114, 178, 255), (150, 150, 150, 255)


def draw() -> Image.Image:
    n = SIZE * SCALE
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    d.rounded_rectangle([0, 0, n - 1, n - 1], radius=12 * SCALE, fill=(255, 255, 255, 255),
                        outline=(60, 60, 60, 255), width=3 * SCALE)
    lo, hi = 12 * SCALE, n - 12 * SCALE

    def xy(fpr, tpr):
        return lo + fpr * (hi - lo), hi - tpr * (hi - lo)

    d.line([xy(0, 0), xy(1, 1)], fill=GREY, width=3 * SCALE)  # chance
    steps = [(0, 0), (0, 0.45), (0.1, 0.45), (0.1, 0.7), (0.25, 0.7), (0.25, 0.86), (0.5, 0.86),
             (0.5, 0.95), (1, 0.95), (1, 1)]
    d.line([xy(*p) for p in steps], fill=BLUE, width=6 * SCALE, joint="curve")
    return img.resize((SIZE, SIZE), Image.LANCZOS)


if __name__ == "__main__":
    out = Path(__file__).with_name("favicon.png")
    draw().save(out, optimize=True)
    print(f"wrote {out} ({out.stat().st_size} bytes)")
