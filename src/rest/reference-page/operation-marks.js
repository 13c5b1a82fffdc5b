// Marks beside an operation's path, from the document: whether it needs a key and with which scope
// (`security` and `x-required-scope`), and its `x-stability`. No "Try it out" where `x-hideTryItPanel` is true.
// Swagger UI marks deprecated operations itself.
//
// Swagger UI draws a lock on every operation with a security requirement, closed when the requirement is met: an
// operation that takes no key (`security: [{}, {ApiKey: []}]`) always meets it, so reads showed a closed lock and
// writes an open one, which reads backwards. Here the lock is left to the operations that need a key, and a badge
// says in words what each one needs.

function operationField(system, path, method, field) {
  return system.specSelectors.specJson().getIn(['paths', path, method, field]);
}

/** Whether the operation can be called without a key: no requirement, or an empty one among its alternatives. */
function takesNoKey(system, path, method) {
  const security =
    operationField(system, path, method, 'security') ?? system.specSelectors.specJson().get('security');
  return !security || security.size === 0 || security.some((requirement) => requirement.size === 0);
}

function keyBadge(system, path, method) {
  const h = system.React.createElement;
  if (takesNoKey(system, path, method))
    return h(
      'span',
      {
        className: 'key-badge key-badge-none',
        title: 'Works without an API key; a key gives its plan’s limits',
      },
      'no key needed',
    );
  const scope = operationField(system, path, method, 'x-required-scope');
  return h(
    'span',
    {
      className: 'key-badge key-badge-needed',
      title: `Send X-API-Key: a key with the scope ${scope} or admin`,
    },
    scope ? `key with scope ${scope}` : 'key needed',
  );
}

window.OperationMarksPlugin = (system) => ({
  components: {
    // Swagger UI looks up an input for array items by type and format, and warns in the console when the pair
    // has none: the `ids` list's int64 items get a text input, which keeps every digit.
    JsonSchema_integer_int64: (props) =>
      system.React.createElement(props.getComponent('JsonSchema_string'), props),
    // The operation's extensions on one line rather than a table under its own header.
    OperationExt: ({ extensions }) => {
      const h = system.React.createElement;
      const plain = (value) => (value?.toJS ? value.toJS() : value);
      return h(
        'div',
        { className: 'opblock-section operation-extensions' },
        h(
          'p',
          null,
          h('b', null, 'Extensions: '),
          ...extensions
            .entrySeq()
            .toArray()
            .flatMap(([name, value], i) => [
              i === 0 ? '' : ', ',
              h('code', { key: name }, `${name}: ${JSON.stringify(plain(value))}`),
            ]),
        ),
      );
    },
  },
  wrapComponents: {
    OperationSummaryPath: (Original, system) => (props) => {
      const h = system.React.createElement;
      const { path, method } = props.operationProps.toObject();
      const stability = operationField(system, path, method, 'x-stability');
      const stabilityBadge = stability
        ? h(
            'span',
            { className: `stability-badge stability-${stability}`, title: `x-stability: ${stability}` },
            stability,
          )
        : null;
      return h(
        system.React.Fragment,
        null,
        h(Original, props),
        stabilityBadge,
        keyBadge(system, path, method),
      );
    },
    operation: (Original, system) => (props) => {
      const h = system.React.createElement;
      const { path, method } = props.operation.toObject();
      let operation = props.operation;
      // Without requirements Swagger UI draws no lock (the badge says "no key needed").
      if (takesNoKey(system, path, method)) operation = operation.set('security', system.Im.List());
      if (operationField(system, path, method, 'x-hideTryItPanel') === true)
        operation = operation.set('allowTryItOut', false);
      return h(Original, { ...props, operation });
    },
  },
});
