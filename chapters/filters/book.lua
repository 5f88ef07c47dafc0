-- book.lua: chapters, numbered figures, references and navigation.
--
-- The chapters are the files named in $BOOK_CHAPTERS (chapters/NN_name.md, in
-- order); chapter NN's figures are numbered NN.1, NN.2, ... in order of
-- appearance. A figure is an image alone in its paragraph with an id:
--     ![A layout in 2x2 tiles](figures/tiles.svg){#fig:tiles}
-- and the text refers to it, from any chapter, as @fig:tiles ("Figure 1.2",
-- a link). A section with an id {#sec:name} is referred to as @sec:name.
-- A reference to an id that no chapter defines, a duplicate id, or a figure
-- file missing from $BOOK_DIR stops the build with the name.
--
-- For HTML (one page per chapter) it also sets the template's navigation
-- (book-chapters, prev, next, pagetitle) and, on the front page (a file that
-- is not a chapter), puts the book's table of contents where a div with id
-- "contents" stands (or at the end).
--
-- For the print document (metadata book-print: the front page's text and
-- every chapter in one HTML page, which book.pdf is printed from) it numbers
-- the chapters' headers as their pages are numbered, puts the book's contents
-- first (each entry with an empty span.toc-page for its page number), and
-- turns links to the book's pages into links inside the document.

local input = (PANDOC_STATE.input_files or {})[1] or ""
local book_dir = os.getenv("BOOK_DIR") or "build/book"
local one_document = FORMAT:match("epub") ~= nil
local print_document = false     -- set from the metadata (book-print)

local function fail(msg)
  error("\n" .. input .. ": " .. msg .. "\n", 0)
end

local function basename(p) return (p:gsub("^.*/", "")) end

local function is_figure(para)
  if #para.content ~= 1 then return nil end
  local img = para.content[1]
  if img.t == "Image" and img.title:match("^fig:") then return img end
  return nil
end

local function read_chapter(path)
  local f = io.open(path, "r")
  if not f then fail("chapter not found: " .. path) end
  local text = f:read("a")
  f:close()
  return pandoc.read(text, "markdown")
end

-- the book's index: every chapter's title, sections and figures
local chapters, targets, current = {}, {}, nil

local function add_target(id, t)
  if targets[id] then
    fail("duplicate id '" .. id .. "' (" .. targets[id].file .. " and " .. t.file .. ")")
  end
  targets[id] = t
end

local function index_chapter(path)
  local num = tonumber(basename(path):match("^(%d+)_"))
  if not num then fail("a chapter's file name must start with its number: " .. path) end
  local ch = {file = path, number = num, html = basename(path):gsub("%.md$", ".html"),
              sections = {}, headers = {}}
  local doc = read_chapter(path)
  local counters, nfig = {0, 0, 0, 0, 0, 0}, 0
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and not b.classes:includes("unnumbered") then
      counters[b.level] = counters[b.level] + 1
      for l = b.level + 1, #counters do counters[l] = 0 end
      local parts = {tostring(num)}
      for l = 2, b.level do parts[#parts + 1] = tostring(counters[l]) end
      local label = table.concat(parts, ".")
      ch.headers[#ch.headers + 1] = {label = label, text = pandoc.utils.stringify(b.content)}
      if b.level == 1 and not ch.title then ch.title = b.content end
      if b.level == 2 then ch.sections[#ch.sections + 1] = {id = b.identifier, label = label, title = b.content} end
      if b.identifier ~= "" then
        add_target(b.identifier, {file = path, html = ch.html, label = "Section " .. label, kind = "sec"})
      end
    end
  end
  -- figures may sit inside divs: walk every paragraph
  local figs = {}
  pandoc.walk_block(pandoc.Div(doc.blocks), {
    Para = function(p)
      local img = is_figure(p)
      if img then figs[#figs + 1] = img end
    end
  })
  for _, img in ipairs(figs) do
    nfig = nfig + 1
    if img.identifier ~= "" then
      add_target(img.identifier, {file = path, html = ch.html,
        label = "Figure " .. num .. "." .. nfig, kind = "fig"})
    end
  end
  ch.title = ch.title or {pandoc.Str(path)}
  return ch
end

local function build_index()
  for path in (os.getenv("BOOK_CHAPTERS") or ""):gmatch("%S+") do
    chapters[#chapters + 1] = index_chapter(path)
    if path == input then current = chapters[#chapters] end
  end
end

local function href(t)
  local id = "#" .. (t.id or "")
  if one_document or (current and t.html == current.html) then return id end
  return t.html .. id
end

-- figures: "Figure N.M: caption" (the number from the index, by id), and
-- the file must exist
local function number_figure(para)
  local img = is_figure(para)
  if not img then return nil end
  if img.identifier == "" then
    fail("a figure needs an id, e.g. ![...](" .. img.src .. "){#fig:name}")
  end
  local src = img.src
  if not src:match("^%a+:") then
    local f = io.open(book_dir .. "/" .. src, "r")
    if not f then fail("figure file not found: " .. book_dir .. "/" .. src .. " (figure " .. img.identifier .. ")") end
    f:close()
  end
  local t = targets[img.identifier]
  if t then
    local caption = pandoc.List({pandoc.Span({pandoc.Str((t.label:gsub(" ", "\u{a0}")) .. ":")},
      pandoc.Attr("", {"figure-number"})), pandoc.Space()})
    caption:extend(img.caption)
    img.caption = caption
  end
  return para
end

local function resolve(cite)
  local out, known = pandoc.List(), false
  for i, c in ipairs(cite.citations) do
    local id = c.id
    if id:match("^fig:") or id:match("^sec:") then
      known = true
      local t = targets[id]
      if not t then fail("reference to an unknown id: @" .. id) end
      if i > 1 then out:extend({pandoc.Str(","), pandoc.Space()}) end
      out:insert(pandoc.Link({pandoc.Str((t.label:gsub(" ", "\u{a0}")))},
        href({html = t.html, id = id}), "", pandoc.Attr("", {"xref"})))
    end
  end
  if known then return out end
  return nil
end

-- the book's contents: every chapter and its numbered sections, each a link to
-- target(ch) or target(ch, i) (the chapter's i-th section), each ending with
-- extra() where that is given
local function contents(target, extra)
  local function entry(label, title, href)
    local t = pandoc.List({pandoc.Span({pandoc.Str(label)}, pandoc.Attr("", {"toc-number"})), pandoc.Space()})
    t:extend(title)
    if extra then t:insert(extra()) end
    return pandoc.Plain({pandoc.Link(t, href)})
  end
  local items = pandoc.List()
  for _, ch in ipairs(chapters) do
    local subs = pandoc.List()
    for i, s in ipairs(ch.sections) do subs:insert({entry(s.label, s.title, target(ch, i))}) end
    local item = pandoc.List({entry(tostring(ch.number), ch.title, target(ch))})
    if #subs > 0 then item:insert(pandoc.BulletList(subs)) end
    items:insert(item)
  end
  return pandoc.Div({pandoc.Header(2, {pandoc.Str("Contents")}, pandoc.Attr("contents-title", {"unnumbered"})),
                     pandoc.BulletList(items)}, pandoc.Attr("contents", {"book-toc"}))
end

local function meta_str(s) return pandoc.MetaString(s) end

local function navigation(doc)
  if one_document then return doc end
  local list = pandoc.List()
  for i, ch in ipairs(chapters) do
    list:insert(pandoc.MetaMap({
      href = meta_str(ch.html), number = meta_str(tostring(ch.number)),
      title = pandoc.MetaInlines(ch.title),
      current = pandoc.MetaBool(ch == current),
    }))
  end
  doc.meta["book-chapters"] = pandoc.MetaList(list)
  local title = pandoc.utils.stringify(doc.meta.title or "")
  if current then
    for i, ch in ipairs(chapters) do
      if ch == current then
        local function link(c)
          return pandoc.MetaMap({href = meta_str(c.html), number = meta_str(tostring(c.number)),
                                 title = pandoc.MetaInlines(c.title)})
        end
        doc.meta.prev = i > 1 and link(chapters[i - 1]) or pandoc.MetaMap({href = meta_str("index.html"),
          title = pandoc.MetaInlines({pandoc.Str("Contents")})})
        if i < #chapters then doc.meta.next = link(chapters[i + 1]) end
      end
    end
    doc.meta.pagetitle = meta_str(current.number .. " " .. pandoc.utils.stringify(current.title) .. " — " .. title)
    doc.meta["chapter-number"] = meta_str(tostring(current.number))
  else
    doc.meta.pagetitle = meta_str(title)
    doc.meta["front-page"] = pandoc.MetaBool(true)
    if #chapters > 0 then
      doc.meta.next = pandoc.MetaMap({href = meta_str(chapters[1].html), number = meta_str(tostring(chapters[1].number)),
        title = pandoc.MetaInlines(chapters[1].title)})
    end
    local toc = contents(function(ch, i) return ch.html .. (i and "#" .. ch.sections[i].id or "") end)
    local placed = false
    for i, b in ipairs(doc.blocks) do
      if b.t == "Div" and b.identifier == "contents" then doc.blocks[i] = toc; placed = true end
    end
    if not placed then doc.blocks:insert(toc) end
  end
  return doc
end

-- the print document: the front page's text (the first input file) and every
-- chapter; the ids of each chapter's title and numbered sections there
local print_ids = {}

local function print_book(doc)
  -- the front page's text keeps its headers as they are
  local skip = 0
  if not current then
    for _, b in ipairs(read_chapter(input).blocks) do
      if b.t == "Header" and not b.classes:includes("unnumbered") then skip = skip + 1 end
    end
  end
  local want = {}      -- every chapter's numbered headers, in order
  for _, ch in ipairs(chapters) do
    print_ids[ch] = {sections = {}}
    for _, h in ipairs(ch.headers) do want[#want + 1] = {ch = ch, label = h.label, text = h.text} end
  end
  local blocks, seen, k = pandoc.List(), 0, 0
  for _, b in ipairs(doc.blocks) do
    if b.t == "Header" and not b.classes:includes("unnumbered") then
      seen = seen + 1
      if seen > skip then
        k = k + 1
        local w, text = want[k], pandoc.utils.stringify(b.content)
        if not w or w.text ~= text then
          fail("the print document's header '" .. text .. "' is not the chapters' header " ..
               (w and ("'" .. w.text .. "' (" .. w.label .. ")") or k))
        end
        b.content:insert(1, pandoc.Space())
        b.content:insert(1, pandoc.Span({pandoc.Str(w.label)}, pandoc.Attr("", {"header-section-number"})))
        b.attributes.number = w.label
        local ids = print_ids[w.ch]
        if b.level == 1 and not ids.chapter then ids.chapter = b.identifier end
        if b.level == 2 then ids.sections[#ids.sections + 1] = b.identifier end
      end
    end
    -- the front page's place for the contents: they come first instead
    if not (b.t == "Div" and b.identifier == "contents") then blocks:insert(b) end
  end
  if k ~= #want then fail("the print document has " .. k .. " of the chapters' " .. #want .. " numbered headers") end
  blocks:insert(1, contents(function(ch, i) return "#" .. ((i and print_ids[ch].sections[i] or print_ids[ch].chapter) or "") end,
    function() return pandoc.Span({}, pandoc.Attr("", {"toc-page"})) end))
  doc.blocks = blocks
  return doc
end

-- a link to one of the book's pages becomes a link inside the print document;
-- one to a page that it does not hold (the calculator) keeps its text only
local function print_link(l)
  local page, rest = l.target:match("^([%w_%-]+%.html)(.*)$")
  if not page then return nil end
  local start = page == "index.html" and "contents" or nil
  for _, ch in ipairs(chapters) do
    if ch.html == page then start = print_ids[ch].chapter or "" end
  end
  if not start then return l.content end
  l.target = rest:match("^#") and rest or "#" .. start
  return l
end

return {
  {Pandoc = function(doc)
    build_index()
    if doc.meta["book-print"] then print_document, one_document = true, true end
    return nil
  end},
  {Para = number_figure},
  {Cite = resolve},
  {Pandoc = function(doc) if print_document then return print_book(doc) end return navigation(doc) end},
  {Link = function(l) if print_document then return print_link(l) end end},
}
