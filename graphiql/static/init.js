// init.js starts GraphiQL in the page that gqlkit's graphiql package
// serves. It is a file of its own, not an inline script, so that the
// page's Content-Security-Policy can say script-src 'self'.
//
// The GraphQL endpoint is the root element's data-endpoint attribute, or
// the page's own path when the attribute is empty (a page served beside
// the endpoint, at the same URL). Queries go to the same origin only.
(function () {
  'use strict';
  var root = document.getElementById('graphiql');
  var endpoint = root.getAttribute('data-endpoint') || window.location.pathname;
  var params = new URLSearchParams(window.location.search);
  // GraphiQL's dialogs lock the page's scrolling with a <style> element
  // that they create when they first open; it carries this nonce, which
  // the page's policy names, and is refused without it.
  window.__webpack_nonce__ = root.getAttribute('data-style-nonce') || undefined;
  var props = {
    fetcher: GraphiQL.createFetcher({ url: endpoint }),
    // The variables and headers editors open: a token is typed there.
    defaultEditorToolsVisibility: true
  };
  // A link such as /api/graphql?query={posts{id}} opens with that query.
  if (params.has('query')) {
    props.defaultQuery = params.get('query');
  }
  if (params.has('variables')) {
    props.variables = params.get('variables');
  }
  root.textContent = '';
  ReactDOM.createRoot(root).render(React.createElement(GraphiQL, props));
})();
