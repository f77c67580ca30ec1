"""The small SVG builder: escaped attributes and text, short numbers, no style attributes."""

from xml.etree import ElementTree

from hypothesis import given, strategies as st

from standings.svg import element, points, text


def test_attributes_and_text_are_escaped():
    made = element("text", text('<b>"Bo" & Ann</b>'), x=1.5, data_name='"><script>', class_="a")
    assert made == (
        '<text x="1.5" data-name="&quot;&gt;&lt;script&gt;" class="a">'
        '&lt;b&gt;"Bo" &amp; Ann&lt;/b&gt;</text>'
    )
    assert ElementTree.fromstring(made).text == '<b>"Bo" & Ann</b>'


def test_numbers_are_short_and_none_leaves_an_attribute_out():
    assert element("circle", cx=10.0, cy=2.345, r=None) == '<circle cx="10" cy="2.35"/>'
    assert points([(0.0, 1.5), (2.25, -0.0)]) == "0,1.5 2.25,0"
    assert element("line", stroke_width=2) == '<line stroke-width="2"/>'


# Names as typed: any printable text (control characters, lone surrogates and noncharacters
# cannot be in XML).
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc", "Cn")), min_size=1))
def test_any_name_comes_back_exactly_as_typed(value):
    made = element("g", element("title", text(value)), data_label=value)
    root = ElementTree.fromstring(made)
    assert root.find("title").text == value
    assert root.get("data-label") == value
