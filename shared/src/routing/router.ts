// The router every app uses, as a thin re-export. Module Federation shares a module whole,
// untouched by tree shaking: react-router-dom shared whole costs ~60 KB gzip on every page.
// Add an export here when a page needs it.
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Route,
  Routes,
  StaticRouter,
  matchPath,
  useLocation,
  useNavigate,
  useParams,
} from 'react-router';
