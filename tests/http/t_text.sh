# Text through the web server, as Statamic 6.1 renders it: a markdown
# field as league/commonmark does (attribute lists, no links made of bare
# URLs, statamic:// references resolved in the text, a task list box in
# league's markup), and a Bard field as tiptap-php does (Statamic 3's
# snake_case nodes, a link's attributes in Statamic's order, a statamic://
# link to an entry and an asset:: image with the asset's alt).

TX_SITE="$T/text-site"
cp -r "$FIXTURES/site" "$TX_SITE"
mkdir -p "$TX_SITE/content/collections/notes/en" "$TX_SITE/resources/blueprints/collections/notes"
printf 'title: Notes\nroute: /notes/{slug}\nsites: [en]\n' >"$TX_SITE/content/collections/notes.yaml"
cat >"$TX_SITE/resources/blueprints/collections/notes/note.yaml" <<'YAML'
title: Note
fields:
  - handle: content
    field: {type: markdown}
  - handle: story
    field: {type: bard}
YAML
cat >"$TX_SITE/content/collections/notes/en/first.md" <<'MD'
---
id: note-1
title: First
story:
  - type: paragraph
    content:
      - {type: text, text: "it's"}
      - {type: hard_break}
      - type: text
        text: two
        marks: [{type: bold}, {type: link, attrs: {href: 'statamic://entry::note-1', target: _blank, rel: noopener}}]
      - {type: text, text: ' more', marks: [{type: bold}]}
  - type: bullet_list
    content:
      - {type: list_item, content: [{type: paragraph, content: [{type: text, text: a}]}]}
  - {type: horizontal_rule}
  - {type: image, attrs: {src: 'asset::assets::img/dot.gif'}}
---
## Title {.lead}

See https://example.com, [the note](statamic://entry::note-1#top) and
![dot](statamic://asset::assets::img/dot.gif){.hero} but not ![x](statamic://asset::assets::nope.png).

- [x] done
MD
tx_ini=$(SITE="$TX_SITE" CACHE="$T/text-cache" site_ini text <<INI
[api]
enabled = true
[resources]
collections = true
INI
)
start_server "$tx_ini" /api
expect "markdown as league renders it, bard as tiptap-php does" GET \
	'/api/collections/notes/entries/note-1?fields=content,story' 200 \
	'{"data":{"content":"<h2 class=\"lead\">Title<\/h2>\n<p>See https:\/\/example.com, <a href=\"\/notes\/first#top\">the note<\/a> and<br \/>\n<img class=\"hero\" src=\"\/assets\/img\/dot.gif\" alt=\"dot\" \/> but not <img src=\"\" alt=\"x\" \/>.<\/p>\n<ul>\n<li><input checked=\"\" disabled=\"\" type=\"checkbox\"> done<\/li>\n<\/ul>\n","story":"<p>it&#039;s<br><strong><a rel=\"noopener\" target=\"_blank\" href=\"\/notes\/first\">two<\/a> more<\/strong><\/p><ul><li><p>a<\/p><\/li><\/ul><hr><img src=\"\/assets\/img\/dot.gif\" alt=\"A dot\">"}}'
stop_server
