"""Small PDFs made on the spot (matplotlib writes real text, pypdf encrypts)."""

from __future__ import annotations

from pathlib import Path


def text_pdf(path: Path, pages: list[str]) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    with PdfPages(path) as pdf:
        for text in pages:
            fig = plt.figure()
            fig.text(0.05, 0.5, text)
            pdf.savefig(fig)
            plt.close(fig)
    return path


def encrypted_pdf(path: Path, source: Path, *, password: str) -> Path:
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter()
    for page in PdfReader(source).pages:
        writer.add_page(page)
    writer.encrypt(user_password=password, owner_password="owner", algorithm="AES-256")
    writer.write(path)
    return path


def blank_pdf(path: Path) -> Path:
    """A PDF whose page has no text layer (what a scan looks like to a text extractor)."""
    from pypdf import PdfWriter

    writer = PdfWriter()
    writer.add_blank_page(width=200, height=200)
    writer.write(path)
    return path
