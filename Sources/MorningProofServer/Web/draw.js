// The page's small builders: an element with its attributes, listeners and children, and a quote
// drawn as a figure (Today, the block screen, the shield).

/// A `tag` element: `text` is its text, `on…` a listener, `undefined` leaves an attribute out.
export function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (key === "text") node.textContent = value;
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value);
  }
  for (const child of children) node.append(child);
  return node;
}

/// `quote` ({text, author, bookTitle}) in `figure`: the words, then who wrote them and where.
export function quoteFigure(figure, quote) {
  figure.replaceChildren(
    element("blockquote", { text: `“${quote.text}”` }),
    element("figcaption", { text: `— ${quote.author}, ${quote.bookTitle}` }));
}
