// Shorter responses in Swagger UI, saying what the document says. The document gives every response its headers
// (through shared definitions); drawn in full, the same rate-limit headers fill half an operation. So the page
// draws a header that every response of an operation carries once, under the responses, except where a client
// acts on it: on 429 the rate-limit headers are drawn in full. An error response (4xx, 5xx) is drawn as its
// description and its examples, one line of JSON each, instead of a media-type menu and a tabbed example box.

// The statuses at which a client reads the rate-limit headers to decide what to do.
const ACTED_ON = ['429'];

/** The headers that every response carries with the same definition (a Map of name to definition). */
function sharedHeaders(Im, responses) {
  const all = responses
    .filter((response, code) => Im.Map.isMap(response) && !code.startsWith('x-'))
    .valueSeq()
    .toArray();
  const first = all[0]?.get('headers');
  if (!Im.Map.isMap(first) || all.length < 2) return Im.OrderedMap();
  return first.filter((header, name) =>
    all.every((response) => Im.is(response.getIn(['headers', name]), header)),
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
        h(
          'div',
          { key: name, className: 'error-example' },
          h('span', { className: 'error-example__type' }, mediaType),
          h('pre', { className: 'example' }, oneLine(value)),
        ),
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
        const sharedDefinitions = sharedHeaders(Im, props.responses);
        if (sharedDefinitions.size === 0) return h(Original, props);
        const shared = sharedDefinitions.keySeq().toArray();
        const actedOn = ACTED_ON.filter((code) => props.responses.has(code));
        // The shared headers drawn in full on a status where a client acts on them are not drawn again below.
        const drawnAbove = shared.filter((name) => /^X-RateLimit-/i.test(name) && actedOn.length > 0);
        const responses = props.responses.map((response, code) =>
          withoutHeaders(
            Im,
            response,
            actedOn.includes(code) ? shared.filter((name) => !drawnAbove.includes(name)) : shared,
          ),
        );
        const rest = sharedDefinitions.filter((_, name) => !drawnAbove.includes(name));
        const Headers = system.getComponent('headers');
        const code = (name) => h('code', { key: name }, name);
        const names = (list) =>
          list.flatMap((name, i) => [i > 0 ? (i === list.length - 1 ? ' and ' : ', ') : '', code(name)]);
        return h(
          system.React.Fragment,
          null,
          h(Original, { ...props, responses }),
          h(
            'div',
            { className: 'shared-headers' },
            h(
              'p',
              null,
              'Every response above carries ',
              ...names(shared),
              drawnAbove.length > 0
                ? ` (the rate-limit headers are described under ${actedOn.join(', ')}).`
                : '.',
            ),
            rest.size > 0 ? h(Headers, { headers: rest, getComponent: system.getComponent }) : null,
          ),
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
