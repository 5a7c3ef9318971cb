"""Our own NoLiMa-style needle set: one-hop latent associations between a landmark and its city.

The official NoLiMa needles are licensed for non-commercial research and not available offline, so these are
written here.  A needle states that a character lives next to (or works beside, or painted) a landmark; the
latent question asks which character has been to the landmark's city, sharing no content word with the
needle, and the literal control asks about the landmark itself.  Answering the latent question needs the
world knowledge "landmark → city"; a lexical retriever cannot bridge it.  Landmark names never contain their
city's name.
"""

from __future__ import annotations

__all__ = ["CHARACTERS", "LANDMARKS", "NEEDLE_TEMPLATES"]

#: landmark -> city (public knowledge, written for this tool)
LANDMARKS: dict[str, str] = {
    "Semper Opera House": "Dresden",
    "Kiasma museum": "Helsinki",
    "Sagrada Familia": "Barcelona",
    "Brandenburg Gate": "Berlin",
    "Colosseum": "Rome",
    "Acropolis": "Athens",
    "Golden Gate Bridge": "San Francisco",
    "Space Needle": "Seattle",
    "Hagia Sophia": "Istanbul",
    "Charles Bridge": "Prague",
    "Atomium": "Brussels",
    "Petronas Towers": "Kuala Lumpur",
    "Burj Khalifa": "Dubai",
    "CN Tower": "Toronto",
    "Gateway of India": "Mumbai",
    "Forbidden City": "Beijing",
    "Marina Bay Sands": "Singapore",
    "Alhambra": "Granada",
    "Wawel Castle": "Kraków",
    "Hermitage Museum": "Saint Petersburg",
    "Rijksmuseum": "Amsterdam",
    "Uffizi Gallery": "Florence",
    "Rialto Bridge": "Venice",
    "Table Mountain": "Cape Town",
    "Eiffel Tower": "Paris",
    "Big Ben": "London",
    "Kremlin": "Moscow",
    "Taj Mahal": "Agra",
    "Christ the Redeemer statue": "Rio de Janeiro",
    "Chain Bridge": "Budapest",
    "Schönbrunn Palace": "Vienna",
}

#: names unlikely to occur in public-domain English prose; each needle draws one
CHARACTERS: tuple[str, ...] = (
    "Yuki", "Stuart", "Katie", "Veronica", "Gary", "Megan", "Mandy", "Calvin", "Diana", "Caleb", "Nadia", "Ravi",
    "Elena", "Tomas", "Ingrid", "Kwame", "Lucia", "Omar", "Priya", "Sven", "Mateo", "Aiko", "Bruno", "Chloe",
)

#: (needle, latent question, literal question); {character}, {landmark} and {city} are filled in
NEEDLE_TEMPLATES: tuple[tuple[str, str, str], ...] = (
    ("Actually, {character} lives next to the {landmark}.",
     "Which character has been to {city}?",
     "Which character lives next to the {landmark}?"),
    ("{character} keeps a small studio with a window facing the {landmark}.",
     "Which character has been to {city}?",
     "Which character keeps a studio with a window facing the {landmark}?"),
)
