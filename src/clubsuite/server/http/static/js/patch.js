// @ts-check
// A small diffing renderer: patch(parent, children) makes ``parent``'s children what a fresh drawing made them
// (elements from h(), text, null for nothing), changing only what differs. An element on the page that matches one
// of the drawing (the same tag and key, or, without a key, the same tag in order) is kept and brought up to date:
// its attributes, its value, its listeners (those h() put on it) and, in turn, its children. So a button with the
// focus keeps it, a list keeps where it was scrolled, and a card that stays in the hand is not drawn anew, without
// a drawing having to find them again. An element made once for the life of the page (the chat's panel, the typed
// move's field) is drawn as kept(element), and put in place as it is.
// A node's key: its data-key, else its id, its card (data-card) or its action (data-action); keys are unique among
// their siblings, and siblings of one tag that come and go (a panel shown for a while) have one, so that the one
// that stays is never taken for another. A handler reads its element from its event (``e.currentTarget``), never from the variable it was
// made in: the element on the page may be an older one, kept.

import {takeListeners} from "./dom.js";

const STANDS_FOR = new WeakMap();
const NONE = new Set(); // no element kept for the life of the page (an element's children, from a drawing)
// A drawing's element -> the element on the page that patch() brought up to it in its place (memo() finds it so).
const PLACED = new WeakMap();

/** Where an element made once for the life of the page (what is typed in it, its listeners and what it holds its
 * own) goes in a drawing: a stand-in, which patch() replaces by the element itself, in place as it is. The element
 * is never put in the drawing itself: h() would take it off the page the moment it was drawn, and its focus with it. */
export function kept(el) {
  const mark = document.createComment("");
  STANDS_FOR.set(mark, el);
  return mark;
}

/** A part of a drawing drawn again only when what it is drawn from changed: ``draw()``'s element where ``inputs``
 * (compared one by one, with ===) differ from those of the part last drawn under ``key`` in ``cache`` (a Map of the
 * caller's), or where that part is no longer on the page; else the element on the page, as it is (kept()). Its
 * subtree is the same either way, so patch() need not make it, nor compare it node by node, at each message. Only
 * for a part that nothing changes on the page between two drawings, whose handlers see nothing but its inputs, and
 * whose key is drawn once in a drawing. */
export function memo(cache, key, inputs, draw) {
  const before = cache.get(key);
  if (before && before.inputs.length === inputs.length && before.inputs.every((v, i) => v === inputs[i])) {
    const el = PLACED.get(before.drawn) ?? before.drawn;
    if (el.isConnected) return kept(el);
  }
  const drawn = draw();
  cache.set(key, {inputs, drawn});
  return drawn;
}

/** Make ``parent``'s children those of ``children`` (nested lists flattened; null, undefined and false left out). */
export function patch(parent, children) {
  const wanted = [];
  const lasting = new Set(); // the elements kept for the life of the page: put in place as they are
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    const el = child instanceof Node ? STANDS_FOR.get(child) : undefined;
    if (el) lasting.add(el);
    wanted.push(el ?? (child instanceof Node ? child : document.createTextNode(String(child))));
  }
  return patchWith(parent, wanted, lasting);
}

/** A drawn element's children as patchWith() takes them: each stand-in (kept()) replaced by its element. */
function resolved(nodes) {
  const wanted = [];
  let lasting = NONE;
  for (const node of nodes) {
    const el = node.nodeType === Node.COMMENT_NODE ? STANDS_FOR.get(node) : undefined;
    if (el) {
      if (lasting === NONE) lasting = new Set();
      lasting.add(el);
    }
    wanted.push(el ?? node);
  }
  return /** @type {[Node[], Set<Node>]} */ ([wanted, lasting]);
}

/** patch() of nodes already made (``lasting``: those put in place as they are). */
function patchWith(parent, wanted, lasting) {
  const used = new Set(wanted); // a node of the page the drawing holds again is its own, never another's
  if (inLine(parent, wanted, lasting, used)) return parent;
  const byKey = new Map();
  const inOrder = new Map();
  for (const old of [...parent.childNodes]) {
    const key = keyOf(old);
    const lists = key === null ? inOrder : byKey;
    const at = key === null ? kindOf(old) : `${kindOf(old)}#${key}`;
    if (!lists.has(at)) lists.set(at, []);
    lists.get(at).push(old);
  }
  const next = wanted.map((fresh) => {
    if (lasting.has(fresh) || fresh.isConnected) return fresh;
    const key = keyOf(fresh);
    const pool = key === null ? inOrder.get(kindOf(fresh)) : byKey.get(`${kindOf(fresh)}#${key}`);
    const old = pool ? pool.find((n) => !used.has(n)) : undefined;
    if (old === undefined) return placeKept(fresh);
    used.add(old);
    update(old, fresh);
    return old;
  });
  const keep = new Set(next);
  for (const old of [...parent.childNodes]) if (!keep.has(old)) old.remove();
  next.forEach((node, i) => {
    const here = parent.childNodes[i];
    if (here !== node) parent.insertBefore(node, here ?? null);
  });
  return parent;
}

/** The usual case, done without the lists patchWith() makes: the page's children and the drawing's line up one by
 * one (as many; each the drawing's own node, or of the kind and key of the drawing's, and no node the drawing holds
 * elsewhere), so each is kept in its place and brought up to the drawing's, as patchWith() would pair them. Whether
 * it was so (nothing is changed where it was not). */
function inLine(parent, wanted, lasting, used) {
  const olds = parent.childNodes;
  if (olds.length !== wanted.length) return false;
  for (let i = 0; i < wanted.length; i += 1) {
    const fresh = wanted[i];
    const old = olds[i];
    if (fresh === old) continue;
    if (lasting.has(fresh) || fresh.isConnected || used.has(old) || !sameKind(old, fresh)) return false;
  }
  for (let i = 0; i < wanted.length; i += 1) if (wanted[i] !== olds[i]) update(olds[i], wanted[i]);
  return true;
}

function sameKind(a, b) {
  if (a.nodeType !== b.nodeType) return false;
  if (a.nodeType !== Node.ELEMENT_NODE) return true;
  return a.localName === b.localName && a.namespaceURI === b.namespaceURI && keyOf(a) === keyOf(b);
}

/** ``fresh``, new on the page, with the elements its stand-ins (kept()) stand for in their places. */
function placeKept(fresh) {
  if (fresh.nodeType !== Node.ELEMENT_NODE) return fresh;
  const walker = document.createTreeWalker(fresh, NodeFilter.SHOW_COMMENT);
  /** @type {Comment[]} */
  const marks = [];
  while (walker.nextNode()) if (STANDS_FOR.has(walker.currentNode)) marks.push(/** @type {Comment} */ (walker.currentNode));
  for (const mark of marks) mark.replaceWith(STANDS_FOR.get(mark));
  return fresh;
}

/** A node's kind, which a node on the page must share with the drawing's to be kept for it. */
function kindOf(node) {
  return node.nodeType === Node.ELEMENT_NODE ? `${node.namespaceURI} ${node.localName}` : `#${node.nodeType}`;
}

function keyOf(node) {
  if (node.nodeType !== Node.ELEMENT_NODE) return null;
  return node.getAttribute("data-key") ?? (node.id || null) ?? node.getAttribute("data-card") ?? node.getAttribute("data-action");
}

/** Bring ``old`` (on the page) up to ``fresh`` (just drawn, of the same kind). */
function update(old, fresh) {
  if (old.nodeType !== Node.ELEMENT_NODE) {
    if (old.nodeValue !== fresh.nodeValue) old.nodeValue = fresh.nodeValue;
    return;
  }
  PLACED.set(fresh, old);
  const had = old.attributes;
  for (let i = had.length - 1; i >= 0; i -= 1) {
    const name = had[i].name;
    if (name !== "style" && !fresh.hasAttribute(name)) old.removeAttribute(name);
  }
  const wants = fresh.attributes;
  for (let i = 0; i < wants.length; i += 1) {
    const {name, value} = wants[i];
    if (name !== "style" && old.getAttribute(name) !== value) old.setAttribute(name, value);
  }
  // an element with no style of its own on either side (most of them) is not asked for its style: asking makes one
  if (old.hasAttribute("style") || fresh.hasAttribute("style")) updateStyle(old.style, fresh.style);
  takeListeners(old, fresh);
  patchWith(old, ...resolved(fresh.childNodes));
  // what a control holds is a property, not an attribute: a drawing sets it after making the control
  if (fresh.localName === "input" && old.checked !== fresh.checked) old.checked = fresh.checked;
  if ((fresh.localName === "select" || fresh.localName === "input" || fresh.localName === "textarea") && old.value !== fresh.value) old.value = fresh.value;
}

/** An element's own style brought up to the drawing's, property by property: the page's policy (style-src 'self')
 * refuses a style attribute written whole, and lets a script set the properties one by one. */
function updateStyle(style, wanted) {
  if (!style || !wanted) return;
  for (const name of [...style]) if (wanted.getPropertyValue(name) === "") style.removeProperty(name);
  for (const name of wanted) {
    const value = wanted.getPropertyValue(name);
    const priority = wanted.getPropertyPriority(name);
    if (style.getPropertyValue(name) !== value || style.getPropertyPriority(name) !== priority) style.setProperty(name, value, priority);
  }
}
