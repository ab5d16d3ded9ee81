import { useState } from 'react';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  PRODUCT_NAME,
  Tabs,
  TabsContent,
  TabsList,
  TabsTrigger,
  usePageTitle,
} from '@aict/web-kit';
import { ImageIcon, PromptsIcon, SparkIcon, TextIcon } from '../layout/icons';
import { LoginForm, RegisterForm } from './auth-forms';
import { prefetchValidation } from './validate';
import styles from './auth-page.module.css';

export function AuthPage() {
  const [tab, setTab] = useState('login');
  usePageTitle(tab === 'login' ? 'Login' : 'Register');
  return (
    <div className={styles.page}>
      <main className={styles.formSide}>
        {/* the validation schemas load when the visitor starts on a form, not with the page */}
        <Card className={styles.card} onFocusCapture={prefetchValidation}>
          <CardHeader>
            <h1 className={styles.heading}>Welcome to {PRODUCT_NAME}</h1>
            <CardDescription>Sign in to your account or create a new one.</CardDescription>
          </CardHeader>
          <CardContent>
            <Tabs value={tab} onValueChange={setTab}>
              <TabsList className={styles.tabs} aria-label="Login or register">
                <TabsTrigger value="login">Login</TabsTrigger>
                <TabsTrigger value="register">Register</TabsTrigger>
              </TabsList>
              <TabsContent value="login">
                <LoginForm />
              </TabsContent>
              <TabsContent value="register">
                <RegisterForm />
              </TabsContent>
            </Tabs>
          </CardContent>
        </Card>
      </main>
      <aside className={styles.hero} aria-label="About">
        <div className={styles.heroInner}>
          <span className={styles.heroLogo} aria-hidden="true">
            <SparkIcon />
          </span>
          <h2 className={styles.heroTitle}>AI content for your whole team</h2>
          <p className={styles.heroText}>
            Generate on-brand text and images from reusable prompt templates, together with your
            workspace.
          </p>
          <ul className={styles.features}>
            <li>
              <TextIcon />
              <div>
                <strong>Text generation</strong>
                <span>Copy, descriptions and posts, refined in a conversation.</span>
              </div>
            </li>
            <li>
              <ImageIcon />
              <div>
                <strong>Image generation</strong>
                <span>Images from a prompt, optionally from a reference image.</span>
              </div>
            </li>
            <li>
              <PromptsIcon />
              <div>
                <strong>Reusable prompts</strong>
                <span>Templates with fill-in variables, shared in your workspace.</span>
              </div>
            </li>
          </ul>
        </div>
      </aside>
    </div>
  );
}
