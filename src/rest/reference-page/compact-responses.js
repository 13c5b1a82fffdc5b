// Shorter responses in Swagger UI, saying what the document says. The document gives every response its headers
// (through shared definitions); drawn in full, the same rate-limit headers fill half an operation. So the page
// draws a header that most responses of an operation carry once, under the responses, naming the responses
// without it (a 304 has no deprecation headers), except where a client acts on it: on 429 the rate-limit headers
// are drawn in full. An error response (4xx, 5xx) is drawn as its
// description and its examples, one line of JSON each, instead of a media-type menu and a tabbed example box.

// The statuses at which a client reads the rate-limit headers to decide what to do.
const ACTED_ON = ['429'];

/**
 * The headers that most responses carry with one definition, grouped by the responses that lack them (e.g. a 304
 * without the deprecation headers): a list of {headers (a Map of name to definition), missing (status codes)}.
 */
function commonHeaderGroups(Im, responses) {
  const all = responses.filter((response, code) => Im.Map.isMap(response) && !code.startsWith('x-'));
  if (all.size < 2) return [];
  const groups = new Map();
  const seen = new Set();
  for (const response of all.valueSeq()) {
    for (const [name, header] of (response.get('headers') ?? Im.Map()).entrySeq()) {
      if (seen.has(name)) continue;
      seen.add(name);
      const carriers = all.filter((other) => other.hasIn(['headers', name]));
      const sameEverywhere = carriers.every((other) => Im.is(other.getIn(['headers', name]), header));
      if (!sameEverywhere || carriers.size * 2 <= all.size) continue;
      const missing = all
        .keySeq()
        .filter((code) => !carriers.has(code))
        .toArray();
      const key = missing.join(',');
      const group = groups.get(key) ?? { headers: Im.OrderedMap(), missing };
      groups.set(key, { ...group, headers: group.headers.set(name, header) });
    }
  }
  return [...groups.values()];
}

/** One sentence naming the media type of the error bodies, which the compact error responses leave out. */
function mediaTypeNote(Im, h, responses) {
  const types = new Set(
    responses
      .filter((response, code) => Number(code) >= 400 && Im.Map.isMap(response) && response.get('content'))
      .valueSeq()
      .flatMap((response) => response.get('content').keySeq())
      .toArray(),
  );
  if (types.size === 0) return null;
  const list = [...types].flatMap((type, i) => [i === 0 ? '' : ' or ', h('code', { key: type }, type)]);
  return h(
    'p',
    { key: 'media-type' },
    'Every error response above (4xx, 5xx) has a body in ',
    ...list,
    ', one example of each code.',
  );
}

function withoutHeaders(Im, response, names) {
  const headers = Im.Map.isMap(response) ? response.get('headers') : undefined;
  if (!headers) return response;
  const left = headers.filter((_, name) => !names.includes(name));
  return left.size > 0 ? response.set('headers', left) : response.delete('headers');
}

/** The examples of a response's first media type, as [name, value] pairs of plain values. */
function examplesOf(Im, response) {
  const [mediaType, media] = response.get('content')?.entrySeq().first() ?? [];
  if (!Im.Map.isMap(media)) return { mediaType, examples: [] };
  const plain = (value) => (value?.toJS ? value.toJS() : value);
  const named = media.get('examples');
  if (Im.Map.isMap(named))
    return {
      mediaType,
      examples: named
        .entrySeq()
        .map(([name, example]) => [name, plain(example.get('value'))])
        .toArray(),
    };
  return { mediaType, examples: media.has('example') ? [['', plain(media.get('example'))]] : [] };
}

/** JSON on one line, with a space after each colon and comma as an indented dump would have. */
const oneLine = (value) => JSON.stringify(value, null, 1).replace(/\n\s*/g, ' ');

function CompactErrorResponse({ code, response, className, getComponent, Im, React }) {
  const h = React.createElement;
  const Markdown = getComponent('Markdown', true);
  const Headers = getComponent('headers');
  const { mediaType, examples } = examplesOf(Im, response);
  // The media type is named once, under the responses (mediaTypeNote).
  return h(
    'tr',
    { className: `response response-error ${className ?? ''}`, 'data-code': code },
    h('td', { className: 'response-col_status' }, code),
    h(
      'td',
      { className: 'response-col_description' },
      h(
        'div',
        { className: 'response-col_description__inner' },
        h(Markdown, { source: response.get('description') }),
      ),
      examples.map(([name, value]) =>
        h('pre', { key: name, className: 'example error-example', title: mediaType }, oneLine(value)),
      ),
      response.get('headers') ? h(Headers, { headers: response.get('headers'), getComponent }) : null,
    ),
    h('td', { className: 'response-col_links' }),
  );
}

window.CompactResponsesPlugin = (system) => {
  const { Im } = system;
  return {
    wrapComponents: {
      responses: (Original, system) => (props) => {
        const h = system.React.createElement;
        const groups = commonHeaderGroups(Im, props.responses);
        const common = groups.flatMap(({ headers }) => headers.keySeq().toArray());
        const actedOn = ACTED_ON.filter((code) => props.responses.has(code));
        // The rate-limit headers are drawn in full where a client acts on them, and named only in the note.
        const drawnInFull = actedOn.length > 0 ? common.filter((name) => /^X-RateLimit-/i.test(name)) : [];
        const responses = props.responses.map((response, code) =>
          withoutHeaders(
            Im,
            response,
            actedOn.includes(code) ? common.filter((name) => !drawnInFull.includes(name)) : common,
          ),
        );
        const Headers = system.getComponent('headers');
        const names = (list) =>
          list.flatMap((name, i) => [
            i === 0 ? '' : i === list.length - 1 ? ' and ' : ', ',
            h('code', { key: name }, name),
          ]);
        const notes = groups.map(({ headers, missing }) => {
          const list = headers.keySeq().toArray();
          const described = headers.filter((_, name) => !drawnInFull.includes(name));
          const where = drawnInFull.some((name) => list.includes(name))
            ? ` (the rate-limit headers are described under ${actedOn.join(', ')})`
            : '';
          return h(
            'div',
            { key: missing.join(',') || 'all' },
            h(
              'p',
              null,
              missing.length === 0
                ? 'Every response above carries '
                : `Every response above but ${missing.join(', ')} carries `,
              ...names(list),
              `${where}.`,
            ),
            described.size > 0 ? h(Headers, { headers: described, getComponent: system.getComponent }) : null,
          );
        });
        const linkless = !props.responses.some((response) => Im.Map.isMap(response) && response.has('links'));
        return h(
          'div',
          { className: linkless ? 'responses-without-links' : '' },
          h(Original, { ...props, responses }),
          h('div', { className: 'shared-headers' }, mediaTypeNote(Im, h, props.responses), ...notes),
        );
      },
      response: (Original, system) => (props) => {
        if (Number(props.code) < 400 || !props.response.get('content'))
          return system.React.createElement(Original, props);
        return system.React.createElement(CompactErrorResponse, { ...props, Im, React: system.React });
      },
    },
  };
};
