"""A small HTML tree for tests (standard library only): find elements, read visible text."""
import re
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
HIDDEN = {"script", "style", "template", "noscript"}
# Attributes people read or hear (screen readers).
TEXT_ATTRIBUTES = ("aria-label", "title", "placeholder", "alt")


class Element:
    def __init__(self, tag, attrs, parent=None):
        self.tag = tag
        self.attrs = {name: (value if value is not None else "") for name, value in attrs}
        self.parent = parent
        self.children = []  # Elements and strings

    def get(self, name, default=None):
        return self.attrs.get(name, default)

    def classes(self):
        return self.get("class", "").split()

    def iter(self):
        yield self
        for child in self.children:
            if isinstance(child, Element):
                yield from child.iter()

    def find_all(self, tag=None, **attrs):
        """Elements below (and including) this one; attrs: name=value, class_=a class,
        or name=True for 'has the attribute'."""
        found = []
        for element in self.iter():
            if tag and element.tag != tag:
                continue
            if all(_matches(element, name, value) for name, value in attrs.items()):
                found.append(element)
        return found

    def find(self, tag=None, **attrs):
        found = self.find_all(tag, **attrs)
        return found[0] if found else None

    def by_id(self, id_):
        return self.find(id=id_)

    def text(self):
        parts = []
        for child in self.children:
            if isinstance(child, Element):
                if child.tag not in HIDDEN:
                    parts.append(child.text())
            else:
                parts.append(child)
        return normalise(" ".join(parts))

    def __repr__(self):
        return f"<{self.tag} {self.attrs}>"


def _matches(element, name, value):
    if name == "class_":
        return value in element.classes()
    name = name.replace("_", "-")
    if value is True:
        return name in element.attrs
    return element.get(name) == value


def normalise(text):
    return re.sub(r"\s+", " ", text).strip()


class _Builder(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Element("#document", [])
        self.current = self.root

    def handle_starttag(self, tag, attrs):
        element = Element(tag, attrs, self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag, attrs):
        self.current.children.append(Element(tag, attrs, self.current))

    def handle_endtag(self, tag):
        node = self.current
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.current = node.parent

    def handle_data(self, data):
        self.current.children.append(data)


def parse(html):
    if isinstance(html, bytes):
        html = html.decode("utf-8")
    builder = _Builder()
    builder.feed(html)
    builder.close()
    return builder.root


def visible_texts(root):
    """Every piece of text a visitor sees or hears: text runs and the readable attributes,
    without scripts, styles and anything marked translate="no"."""
    texts = []

    def walk(element):
        if element.tag in HIDDEN or element.get("translate") == "no":
            return
        if element.tag == "input" and element.get("type") == "hidden":
            return
        for name in TEXT_ATTRIBUTES:
            if element.get(name):
                texts.append(normalise(element.get(name)))
        if element.tag == "input" and element.get("type") in ("submit", "button") and element.get("value"):
            texts.append(normalise(element.get("value")))
        run = []
        for child in element.children:
            if isinstance(child, Element):
                if child.tag in ("br", "wbr"):
                    continue
                if run:
                    texts.append(normalise("".join(run)))
                    run = []
                walk(child)
            else:
                run.append(child)
        if run:
            texts.append(normalise("".join(run)))

    walk(root)
    return [text for text in texts if text]
